/**
 * The ACP Registry in a quick pick: every agent with its version, description,
 * publisher and icon, marked installed / update available / cannot run here
 * (and why). It opens at once with what is known offline and fills in as the
 * registry answers and the icons arrive.
 */
import * as vscode from 'vscode';
import type { AgentRegistry, RegistryEntry } from '../agents/registry/agentRegistry';
import { byline } from '../agents/registry/format';
import { looksSecret, REDACTED } from '../agents/redact';
import { isUnverified } from '../agents/registry/installer';
import type { RegistryList } from '../agents/registry/registrySource';
import { forLabel, forMessage } from '../shared/nativeText';

export interface RegistryPickItem extends vscode.QuickPickItem {
  readonly entry?: RegistryEntry;
}

/** How an agent is installed, in a word (npx and uvx are their names). */
const kindWord = (kind: 'binary' | 'npx' | 'uvx'): string => (kind === 'binary' ? vscode.l10n.t('download') : kind);

function item(e: RegistryEntry, configured: ReadonlySet<string>): RegistryPickItem {
  const a = e.agent;
  const unavailable = 'unavailable' in e.dist ? e.dist.unavailable : undefined;
  const state = e.installed
    ? e.update
      ? vscode.l10n.t('installed {0} · update to {1}', e.installed.version, a.version)
      : vscode.l10n.t('installed {0}', e.installed.version)
    : unavailable
      ? `${a.version} · ${unavailable}`
      : `${a.version} · ${'kind' in e.dist ? kindWord(e.dist.kind) : ''}`;
  const by = byline(a.authors) || (a.repository ? ` — ${a.repository}` : '');
  // A package that moved: the old entry says where to, the new one (under the old id) where from.
  const moved = e.movedTo
    ? vscode.l10n.t('Moved to {0} (listed too). ', e.movedTo)
    : e.movedFrom
      ? vscode.l10n.t('Moved from {0}: installs {1}. ', e.movedFrom, 'kind' in e.dist && e.dist.kind !== 'binary' ? e.dist.target.package : a.version)
      : '';
  return {
    label: forLabel(a.name),
    description: forLabel(configured.has(a.id) ? vscode.l10n.t('{0} · your settings define this id', state) : state, 300),
    detail: forLabel(`${moved}${a.description}${by}`, 500),
    iconPath: unavailable ? new vscode.ThemeIcon('circle-slash') : e.iconFile ? vscode.Uri.file(e.iconFile) : new vscode.ThemeIcon(e.installed ? 'pass' : 'hubot'),
    entry: e,
  };
}

/** The items, grouped: installed, available, cannot run here. */
function registryItems(entries: readonly RegistryEntry[], configured: ReadonlySet<string>): RegistryPickItem[] {
  const byName = (x: RegistryEntry, y: RegistryEntry) => x.agent.name.localeCompare(y.agent.name);
  const groups: [string, RegistryEntry[]][] = [
    [vscode.l10n.t('Installed'), entries.filter((e) => e.installed).sort(byName)],
    [vscode.l10n.t('Available'), entries.filter((e) => !e.installed && !('unavailable' in e.dist)).sort(byName)],
    [vscode.l10n.t('Cannot run here'), entries.filter((e) => !e.installed && 'unavailable' in e.dist).sort(byName)],
  ];
  return groups.flatMap(([label, list]) => (list.length ? [{ label, kind: vscode.QuickPickItemKind.Separator }, ...list.map((e) => item(e, configured))] : []));
}

function sourceWords(list: RegistryList): string {
  const agents = vscode.l10n.t('{0} agents', list.agents.length);
  if (list.from === 'registry') return agents;
  if (list.from !== 'cache') return vscode.l10n.t('{0} · offline: the list shipped with the extension', agents);
  return list.fetchedAt ? vscode.l10n.t('{0} · offline: the copy of {1}', agents, new Date(list.fetchedAt).toLocaleString()) : vscode.l10n.t('{0} · offline: the copy', agents);
}

/**
 * Shows the picker; resolves with the entry picked (undefined when dismissed).
 * `created` sees the quick pick (the tests drive it).
 */
export function pickFromRegistry(
  registry: AgentRegistry,
  configured: ReadonlySet<string>,
  opts: { title: string; created?: (qp: vscode.QuickPick<RegistryPickItem>) => void; log: (m: string) => void },
): Promise<RegistryEntry | undefined> {
  const qp = vscode.window.createQuickPick<RegistryPickItem>();
  qp.title = opts.title;
  qp.placeholder = vscode.l10n.t('Pick an agent to install from the ACP Registry');
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  qp.busy = true;
  // Opened from the walkthrough, the page marking its step done takes the focus: the picker stays (Escape closes it).
  qp.ignoreFocusOut = true;
  const cts = new vscode.CancellationTokenSource();
  registry.rescanMachine();
  let list = registry.source.current();
  let disposed = false;
  const show = async () => {
    const entries = await registry.entries(list);
    if (disposed) return;
    const active = qp.activeItems[0]?.entry?.agent.id;
    qp.items = registryItems(entries, configured);
    const again = active ? qp.items.find((i) => i.entry?.agent.id === active) : undefined;
    if (again) qp.activeItems = [again];
    qp.placeholder = vscode.l10n.t('Pick an agent to install from the ACP Registry ({0})', sourceWords(list));
  };
  const refresh = async () => {
    await show();
    list = await registry.source.refresh();
    if (disposed) return;
    await show();
    qp.busy = false;
    let pending: ReturnType<typeof setTimeout> | undefined;
    await registry.fetchIcons(
      list,
      () => {
        pending ??= setTimeout(() => {
          pending = undefined;
          void show();
        }, 100);
      },
      cts.token,
    );
  };
  return new Promise((resolve) => {
    qp.onDidAccept(() => {
      const picked = qp.selectedItems[0]?.entry ?? qp.activeItems[0]?.entry;
      if (!picked) return;
      resolve(picked);
      qp.hide();
    });
    qp.onDidHide(() => {
      disposed = true;
      cts.cancel();
      cts.dispose();
      qp.dispose();
      resolve(undefined);
    });
    qp.show();
    opts.created?.(qp);
    void refresh().catch((err: unknown) => {
      opts.log(`The registry picker could not be filled: ${String(err)}`);
      qp.busy = false;
    });
  });
}

/**
 * The environment an entry sets (what is left after the refused names are
 * stripped), as the user is shown it: `NAME=value, …`, a value that looks
 * like a secret redacted, escaped for a notification or a dialog. Empty when
 * the entry sets none.
 */
export function registryEnv(entry: RegistryEntry): string {
  if (!('kind' in entry.dist)) return '';
  const vars = Object.entries(entry.dist.target.env).map(([k, v]) => `${k}=${looksSecret(k, v) ? REDACTED : JSON.stringify(v).slice(1, -1)}`);
  return vars.length ? forMessage(vars.join(', '), 1000) : '';
}

/**
 * The confirmation before an install: always for a download the registry gives
 * no SHA-256 for; for any entry whose env had names stripped. Both show the env
 * the agent gets and what was left out. Resolves true when the user allows it
 * (or when there is nothing to confirm).
 */
export async function confirmRegistryInstall(entry: RegistryEntry, confirm: (message: string, detail: string, action: string) => Promise<boolean>): Promise<boolean> {
  if (!('kind' in entry.dist)) return true;
  const a = entry.agent;
  const { strippedEnv = [] } = entry.dist.target;
  const vars = registryEnv(entry);
  const envText = vars ? vscode.l10n.t('The agent is started with: {0}.', vars) : '';
  const strippedText = strippedEnv.length
    ? vscode.l10n.t('Left out of its environment (never taken from a registry, they decide which programs and libraries run): {0}.', forMessage(strippedEnv.join(', '), 500))
    : '';
  const more = [envText, strippedText].filter(Boolean).join('\n\n');
  if (isUnverified(entry.dist)) {
    return await confirm(
      vscode.l10n.t('The ACP Registry gives no checksum for {0} {1}. Install it anyway?', forMessage(a.name), forMessage(a.version)),
      [vscode.l10n.t('Without a SHA-256 checksum the download cannot be checked: whatever {0} serves is unpacked and run as the agent. Install only if you trust where it comes from.', forMessage(hostOf(entry))), more].filter(Boolean).join('\n\n'),
      vscode.l10n.t('Install Without Checksum'),
    );
  }
  // An entry that tried to set what decides what runs: said before anything is downloaded.
  if (strippedEnv.length === 0) return true;
  return await confirm(vscode.l10n.t('The ACP Registry entry of {0} {1} sets environment variables that are left out. Install it without them?', forMessage(a.name), forMessage(a.version)), more, vscode.l10n.t('Install'));
}

function hostOf(entry: RegistryEntry): string {
  if (!('kind' in entry.dist) || entry.dist.kind !== 'binary') return '';
  try {
    return new URL(entry.dist.target.archive).host;
  } catch {
    return entry.dist.target.archive;
  }
}
