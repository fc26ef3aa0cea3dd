/**
 * Agents' diagnostics as Markdown, for the diagnostics view and a bug report.
 * No `vscode` import.
 *
 * Everything an agent (or a workspace) controls — its agentInfo, capability
 * keys and values, stderr, method names, MCP server names — is untrusted:
 * - redacted (the known secret values, `redactText`'s patterns, and here also
 *   `name: value` pairs whose name says secret and long key-shaped tokens);
 * - bounded (lines, characters per line, entries);
 * - never Markdown: it goes inside a code fence longer than any backtick run
 *   in it, or, in the tables, reduced to a plain token (method names), so it
 *   cannot become a link, a command, HTML, or break the document's structure.
 */
import { stripVTControlCharacters } from 'node:util';
import * as l10n from '@vscode/l10n';
import type { MethodCount } from '../acp/methodStats';
import type { AgentDiagnostics } from './diagnostics';
import { REDACTED, redactText } from './redact';
import { rangeText } from './quirks';

export const REPORT_LIMITS = {
  /** Lines of stderr shown per agent. */
  stderrLines: 20,
  /** Characters of one stderr line. */
  stderrChars: 400,
  /** Characters of one value (agentInfo fields, capability values, details). */
  valueChars: 200,
  /** Flattened capability entries shown. */
  capabilityEntries: 80,
} as const;

export interface ReportContext {
  /** Secret values met at run time (expanded env, MCP env and headers, sign-in values). */
  readonly secrets: readonly string[];
  readonly extensionVersion: string;
  /** The editor and its version, e.g. "VS Code 1.100.0". */
  readonly host: string;
  readonly platform: string;
  /** When the report was made (ISO). */
  readonly generated: string;
}

const SECRET_NAME = '(?:api[-_]?key|apikey|access[-_]?key|secret|token|password|passwd|authorization|credential|private[-_]?key|session[-_]?key)';
const SECRET_KEY_NAME = new RegExp(SECRET_NAME, 'i');
/** `"apiKey": "…"`, `token: …`, `password=…` in any case (redactText covers UPPER_CASE=… and flags). */
const SECRET_PAIR = new RegExp(`(${SECRET_NAME}[\\w.-]*["']?\\s*[:=]\\s*["']?)(?!${REDACTED})[^\\s"',;]+`, 'gi');
/** Runs that may be a key: long, no separators a path or a sentence would have. */
const TOKEN_RUN = /[A-Za-z0-9_+=-]{24,}/g;
/** A bare AWS secret access key: 40 characters of base64, where a `/` stops TOKEN_RUN. */
const AWS_SECRET_RUN = /(?<![A-Za-z0-9/+])[A-Za-z0-9+][A-Za-z0-9/+]{38}[A-Za-z0-9+](?![A-Za-z0-9/+=])/g;
/** Control characters, and those that reorder or hide text (bidi overrides, zero-width). */
const UNSAFE_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** Whether a run of letters and digits looks like a key rather than a word, an id or a name. */
function keyShaped(run: string): boolean {
  if (/^[0-9a-fA-F]{32,}$/.test(run)) return true;
  return /[A-Z]/.test(run) && /[a-z]/.test(run) && /\d/.test(run);
}

/** Key-shaped, with a `/` or `+` somewhere, and too few `/` for a path. */
function awsSecretShaped(run: string): boolean {
  return keyShaped(run) && /[/+]/.test(run) && run.split('/').length <= 4;
}

/** Redacts, strips terminal escapes, shows control characters, and cuts: one line of untrusted text. */
export function scrub(text: string, secrets: readonly string[], max: number = REPORT_LIMITS.valueChars): string {
  // Only what can be shown is scanned (bounded work). A word cut at the end is dropped, so no part of a secret
  // is left; a longer run stays, and what is shown of it ends well before the cut.
  const head = text.length > max + 256 ? text.slice(0, max + 256).replace(/\S{1,200}$/, '') : text;
  let out = redactText(stripVTControlCharacters(head), secrets);
  out = out.replace(SECRET_PAIR, `$1${REDACTED}`).replace(AWS_SECRET_RUN, (run) => (awsSecretShaped(run) ? REDACTED : run)).replace(TOKEN_RUN, (run) => (keyShaped(run) ? REDACTED : run));
  out = out.replace(/\t/g, '  ').replace(/\r?\n/g, '⏎').replace(UNSAFE_CHARS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return out.length > max || head !== text ? `${out.slice(0, max)}… (${text.length} chars)` : out;
}

/** A code fence around lines of text, longer than any run of backticks in them. */
export function fence(lines: readonly string[], info = 'text'): string {
  const body = lines.join('\n');
  let longest = 0;
  for (const m of body.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const f = '`'.repeat(Math.max(3, longest + 1));
  return `${f}${info}\n${body}\n${f}`;
}

/** A method name as a plain token for a table cell: only the characters method names are made of. */
function methodToken(method: string, secrets: readonly string[]): string {
  return `\`${scrub(method, secrets, 100).replace(/[^A-Za-z0-9_$/.:«»-]/g, '?')}\``;
}

/** A structured value flattened to `path: value` lines, bounded. */
function flatten(value: unknown, secrets: readonly string[], limit: number): string[] {
  const out: string[] = [];
  let more = 0;
  const walk = (v: unknown, path: string, depth: number) => {
    if (out.length >= limit) {
      more++;
      return;
    }
    if (typeof v === 'object' && v !== null && depth < 6) {
      const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v);
      if (entries.length === 0) out.push(`${path || '(root)'}: ${Array.isArray(v) ? '[]' : '{}'}`);
      for (const [k, x] of entries) walk(x, path ? `${path}.${k}` : k, depth + 1);
      return;
    }
    const shown = typeof v === 'string' ? JSON.stringify(v) : typeof v === 'object' && v !== null ? '{…}' : String(v);
    if (SECRET_KEY_NAME.test(path.split('.').pop() ?? '')) {
      out.push(`${scrub(path, secrets, 120)}: ${REDACTED}`);
      return;
    }
    out.push(`${scrub(path, secrets, 120)}: ${scrub(shown, secrets)}`);
  };
  walk(value, '', 0);
  if (more) out.push(l10n.t('… and {0} more entries', more));
  return out;
}

function methodRows(list: readonly MethodCount[], arrow: string, secrets: readonly string[]): string[] {
  return list.map((m) => {
    const unanswered = Math.max(0, m.requests - m.ok - m.errors);
    const codes = [...m.errorCodes.map((c) => `${c.code} ×${c.count}`), ...(m.otherErrorCodes ? [l10n.t('other ×{0}', m.otherErrorCodes)] : [])].join(', ');
    return `| ${arrow} | ${methodToken(m.method, secrets)} | ${m.requests} | ${m.notifications} | ${m.ok} | ${m.errors}${codes ? ` (${codes})` : ''} | ${unanswered} |`;
  });
}

function agentSection(d: AgentDiagnostics, secrets: readonly string[]): string[] {
  const s = (t: unknown, max?: number) => scrub(typeof t === 'string' ? t : t === undefined ? '' : String(JSON.stringify(t)), secrets, max);
  const out: string[] = [];
  out.push(`## ${l10n.t('Agent {0}', methodToken(d.id, secrets))}`, '');
  const info = d.agentInfo;
  const identity = [
    `id: ${s(d.id)}`,
    `name: ${s(d.name)}`,
    `status: ${s(d.status)}${d.pid !== undefined ? ` (pid ${d.pid})` : ''}${d.exit ? `, exited: ${s(d.exit)}` : ''}`,
    `agentInfo.name: ${info ? s(info.name) : '—'}`,
    `agentInfo.title: ${info ? s(info.title) : '—'}`,
    `agentInfo.version: ${info ? s(info.version) : '—'}`,
    `protocolVersion: ${d.protocolVersion ?? '—'}`,
    `authMethods: ${d.authMethods.length ? d.authMethods.map((m) => s(m, 80)).join(', ') : '—'}`,
    `command: ${commandLine(d.commandLine, secrets)}`,
  ];
  out.push(fence(identity), '');

  const { methods } = d;
  const calls = (dir: 'out' | 'in', names: readonly string[]) => {
    const list = dir === 'out' ? methods.out : methods.in;
    let n = 0;
    let errors = 0;
    for (const m of list) {
      if (!names.includes(m.method)) continue;
      n += m.requests + m.notifications;
      errors += m.errors;
    }
    return { n, errors };
  };
  out.push(`### ${l10n.t('Capabilities: declared and exercised')}`, '');
  out.push(`| ${l10n.t('side')} | ${l10n.t('capability')} | ${l10n.t('declared')} | ${l10n.t('methods')} | ${l10n.t('calls')} | ${l10n.t('errors')} |`, '| --- | --- | --- | --- | ---: | ---: |');
  for (const c of d.capabilityUse) {
    const used = c.methods.length ? calls(c.side === 'agent' ? 'out' : 'in', c.methods) : undefined;
    const side = c.side === 'agent' ? l10n.t('agent') : l10n.t('client');
    const methodsCell = c.methods.map((m) => `\`${m}\``).join(' ') || '—';
    out.push(`| ${side} | \`${c.capability}\` | ${c.declared ? l10n.t('yes') : l10n.t('no')} | ${methodsCell} | ${used ? used.n : '—'} | ${used ? used.errors : '—'} |`);
  }
  out.push('', l10n.t('What the agent declared in its answer to initialize:'), '', fence(d.agentCapabilities === undefined ? ['—'] : flatten(d.agentCapabilities, secrets, REPORT_LIMITS.capabilityEntries)), '');

  out.push(`### ${l10n.t('Methods in this window')}`, '');
  if (methods.out.length + methods.in.length === 0) out.push(l10n.t('None yet.'), '');
  else {
    out.push(`| | ${l10n.t('method')} | ${l10n.t('requests')} | ${l10n.t('notifications')} | ${l10n.t('answered')} | ${l10n.t('errors')} | ${l10n.t('no answer (yet)')} |`, '| --- | --- | ---: | ---: | ---: | ---: | ---: |');
    out.push(...methodRows(methods.out, 'client → agent', secrets), ...methodRows(methods.in, 'agent → client', secrets), '');
  }
  const notes: string[] = [];
  if (methods.overflow.out || methods.overflow.in) notes.push(l10n.t('{0} messages with further method names were counted but not listed (at most {1} names per direction).', methods.overflow.out + methods.overflow.in, 64));
  if (methods.invalidLines) notes.push(l10n.t('{0} lines from the agent were not JSON-RPC and were skipped.', methods.invalidLines));
  if (notes.length) out.push(...notes.map((n) => `- ${n}`), '');

  out.push(`### ${l10n.t('MCP servers')}`, '');
  const mcp = d.mcp;
  if (!mcp) out.push(l10n.t('Not known.'), '');
  else {
    out.push(mcp.source === 'live' ? l10n.t('What each session handed to the agent, and what became of it:') : l10n.t('The servers a new session would hand to the agent now, and those left out (whether the agent started them is not known here):'), '');
    const rows = mcp.servers.slice(0, 50).map((m) => {
      const tools = m.tools !== undefined ? `, ${m.tools} tools` : '';
      const session = m.session ? ` [session ${s(m.session, 60)}]` : '';
      return `${s(m.name, 80)}: ${m.state}${tools}${m.detail ? ` — ${s(m.detail, 300)}` : ''}${session}`;
    });
    if (mcp.servers.length > 50) rows.push(l10n.t('… and {0} more', mcp.servers.length - 50));
    if (mcp.notice) rows.push('', `${l10n.t('Note:')} ${s(mcp.notice, 400)}`);
    out.push(fence(rows.length ? rows : ['—']), '');
  }

  if (d.extensions?.length) {
    out.push(`### ${l10n.t('Extensions in the initialize result (_meta)')}`, '');
    out.push(fence(d.extensions.map((e) => `${s(e.key, 60)}: ${e.used ? l10n.t('used (Send now steers the running turn)') : l10n.t('not used by this client (ignored)')}`)), '');
  }

  out.push(`### ${l10n.t('Compatibility entries applied')}`, '');
  const quirks = [...d.quirks.map((q) => `${q.id} (${q.match.name} ${rangeText(q.match)}): ${q.does} — ${q.issue}`), ...d.launchNotes.map((n) => s(n, 400))];
  out.push(quirks.length ? fence(quirks) : l10n.t('None.'), '');

  out.push(`### ${l10n.t('Last lines of stderr (redacted)')}`, '');
  const tail = d.stderr.slice(-REPORT_LIMITS.stderrLines).map((l) => scrub(l, secrets, REPORT_LIMITS.stderrChars));
  out.push(tail.length ? fence(tail) : l10n.t('None.'), '');
  return out;
}

/** The command line, each argument redacted: after a secret-named flag, or when it looks like a key itself. */
function commandLine(parts: readonly string[], secrets: readonly string[]): string {
  return parts
    .slice(0, 40)
    .map((a, i) => (i > 0 && /^--?[\w.-]*(?:token|secret|password|passwd|key|auth|credential)[\w.-]*$/i.test(parts[i - 1]!) ? REDACTED : scrub(a, secrets, 200)))
    .join(' ');
}

/** The report: a header, then one section per agent. */
export function diagnosticsMarkdown(agents: readonly AgentDiagnostics[], ctx: ReportContext): string {
  const out: string[] = [
    `# ${l10n.t('ACP agent diagnostics')}`,
    '',
    fence([`extension: ${scrub(ctx.extensionVersion, [], 40)}`, `host: ${scrub(ctx.host, [], 80)}`, `platform: ${scrub(ctx.platform, [], 80)}`, `generated: ${scrub(ctx.generated, [], 40)}`]),
    '',
  ];
  if (agents.length === 0) out.push(l10n.t('No agent has been started in this window.'), '');
  for (const d of agents) out.push(...agentSection(d, ctx.secrets));
  return out.join('\n');
}
