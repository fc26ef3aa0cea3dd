// Text from an agent never becomes markup in VS Code's own UI: a notification
// does not make a link of it, a label does not draw its $(icon) syntax, a
// tooltip does not render it as markdown. The fake agent (evil-text) puts such
// text into every field that reaches a notification, the Sessions tree, the
// status bar, a quick pick, a modal or a panel's title.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AccessQuestion } from '../../src/sessions/policy/accessGate';
import type { ShownDialog } from '../../src/testHooks';
import { api, closeAllEditors, connected, readRecord, waitFor, waitForStatus } from './helpers';

// VS Code's grammars (its workbench bundle): notifications make links where parseLinkedText's
// /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^\)\s]+)(?: (["'])(.+?)(\3))?\)/gi matches; labels draw
// codicons where /(\\)?\$\(([A-Za-z0-9-]+(?:~[A-Za-z]+)?)\)/g matches.
const LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^\)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
const CODICON = /(\\)?\$\(([A-Za-z0-9-]+(?:~[A-Za-z]+)?)\)/g;

/** Asserts that `text` (what the UI was given) forms no link and, leaving out the icons we put there ourselves, no codicon. */
function inert(where: string, text: string | undefined, ours: readonly string[] = []): void {
  const t = text ?? '';
  assert.deepEqual([...t.matchAll(LINK)].map((m) => m[0]), [], `${where} would show a link: ${JSON.stringify(t)}`);
  assert.deepEqual([...t.matchAll(CODICON)].map((m) => m[0]).filter((m) => !ours.includes(m)), [], `${where} would draw an icon: ${JSON.stringify(t)}`);
}
/** The text as a person reads it (the zero-width spaces that break the syntax are invisible). */
const seen = (t: string | undefined) => (t ?? '').replace(/\u200b/g, '');
/** The fake agent's first prompt waits for this file before it asks (the e2e test hides the panel first). */
const go = () => fs.writeFileSync(path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.evil-text-go'), '');

describe('Untrusted text in native UI', function () {
  this.timeout(60_000);
  const cfg = () => vscode.workspace.getConfiguration('acpAgents');

  afterEach(async () => {
    const a = await api();
    a.testing.setElicitationDialogs(undefined);
    a.testing.setSessionPicker(undefined);
    await cfg().update('notifications', undefined, vscode.ConfigurationTarget.Global);
    await closeAllEditors();
    await a.testing.stopAllAgents();
  });

  it('a permission request titled with a command link: the notification, the panel title and the status bar show it as text', async () => {
    await cfg().update('notifications', true, vscode.ConfigurationTarget.Global);
    const a = await api();
    const panel = a.openChat('fake-evil-text');
    await waitForStatus(panel, 'connected', connected);
    const doc = await vscode.workspace.openTextDocument({ content: 'something else', language: 'plaintext' });
    await vscode.window.showTextDocument(doc, { preview: false, viewColumn: panel.panel.viewColumn });
    await waitFor('the panel to be hidden', () => (!panel.panel.visible ? true : undefined));
    const before = a.testing.messages().length;
    go();
    const turn = panel.session.prompt('go');
    const shown = await waitFor('the notification', () => a.testing.messages().slice(before).find((m) => /asks for permission/.test(m.message)));
    inert('the notification', shown.message);
    assert.match(seen(shown.message), /asks for permission: \[Allow\]\(command:workbench\.action\.terminal\.new\) \$\(pass\) _it_$/, 'the words are all there');
    await waitFor('the session title in the panel title', () => (/Title/.test(panel.panel.title) ? true : undefined));
    inert('the panel title', panel.panel.title);
    assert.equal(seen(panel.panel.title), 'Fake: evil-text: [Title](command:workbench.action.terminal.new) $(check) **bold**');
    await waitFor('the status bar on the session', () => (/Title/.test(a.testing.statusBar().tooltip) ? true : undefined));
    inert('the status bar tooltip', a.testing.statusBar().tooltip);
    inert('the status bar', a.testing.statusBar().text, ['$(hubot)', '$(bell-dot)', '$(loading~spin)', '$(error)']);
    await panel.session.cancel();
    assert.equal(await turn, 'cancelled');
  });

  it('sessions an agent lists: the Sessions tree (label, description, tooltip) and the Resume picker show their titles and folders as text', async () => {
    const a = await api();
    const panel = a.openChat('fake-evil-text');
    await waitForStatus(panel, 'connected', connected);
    await vscode.commands.executeCommand('acpAgents.refreshSessions');
    const item = await waitFor('the listed session in the tree', () => a.testing.treeItems('fake-evil-text').sessions.find((i) => i.id === 'session:fake-evil-text:evil-1'));
    const label = typeof item.label === 'string' ? item.label : item.label?.label;
    inert('the tree label', label);
    assert.equal(seen(label), '[Listed](command:workbench.action.terminal.new) $(check) **bold**');
    inert('the tree description', String(item.description ?? ''));
    assert.match(seen(String(item.description)), /\[x\]\(command:workbench\.action\.terminal\.new\) \$\(zap\)$/, 'the folder is named');
    const tip = item.tooltip as vscode.MarkdownString;
    assert.ok(tip instanceof vscode.MarkdownString);
    assert.ok(!tip.isTrusted && !tip.supportThemeIcons && !tip.supportHtml, 'an untrusted tooltip: no command links, icons or HTML');
    assert.doesNotMatch(tip.value, /\]\(|(^|[^\\])\$\(|(^|[^\\])\*\*\[/, 'their markdown is escaped text');
    assert.match(tip.value, /^\*\*\\\[Listed/, 'ours is markdown: the title in bold');
    // The Resume picker offers the same session.
    let offered: readonly { label: string; description?: string; detail?: string; sessionId: string }[] = [];
    a.testing.setSessionPicker(async (o) => ((offered = o), undefined));
    await vscode.commands.executeCommand('acpAgents.resumeSession', 'fake-evil-text');
    const listed = offered.find((o) => o.sessionId === 'evil-1');
    assert.ok(listed, 'the picker offered the session');
    inert('the picker label', listed.label);
    inert('the picker detail', listed.detail);
    assert.equal(seen(listed.label), '[Listed](command:workbench.action.terminal.new) $(check) **bold**');
  });

  it('an agent named with link and icon syntax: the status bar, the panel title and the tree show the name as text', async () => {
    const a = await api();
    const agents = cfg().inspect<Record<string, unknown>[]>('agents')?.globalValue ?? [];
    const template = agents.find((x) => x.id === 'fake-queue');
    assert.ok(template);
    const name = '$(zap) [Run](command:workbench.action.terminal.new)';
    await cfg().update('agents', [...agents, { ...template, id: 'evil-name', name }], vscode.ConfigurationTarget.Global);
    try {
      const panel = a.openChat('evil-name');
      await waitForStatus(panel, 'connected', connected);
      const text = await waitFor('the status bar on the agent', () => (a.testing.statusBar().text.endsWith(': ready') && /Run/.test(a.testing.statusBar().text) ? a.testing.statusBar().text : undefined));
      inert('the status bar', text, ['$(hubot)']);
      assert.equal(seen(text), `$(hubot) ${name}: ready`);
      inert('the status bar tooltip', a.testing.statusBar().tooltip);
      inert('the panel title', panel.panel.title);
      const agentItem = a.testing.treeItems('evil-name').agent;
      inert('the tree label', typeof agentItem.label === 'string' ? agentItem.label : agentItem.label?.label);
      assert.ok(!(agentItem.tooltip as vscode.MarkdownString).isTrusted);
      assert.doesNotMatch((agentItem.tooltip as vscode.MarkdownString).value, /\]\(|(^|[^\\])\$\(/);
    } finally {
      await closeAllEditors();
      await a.testing.stopAllAgents();
      await cfg().update('agents', agents, vscode.ConfigurationTarget.Global);
    }
  });

  it('questions not about a session: the modal, the quick pick and the URL modal show the agent’s text as text', async () => {
    const a = await api();
    const dialogs: ShownDialog[] = [];
    a.testing.setElicitationDialogs(async (d) => {
      dialogs.push(d);
      if (d.kind === 'modal') return d.items.includes('Fill In') ? 'Fill In' : 'Decline';
      if (d.kind === 'pick') return d.items[0];
      return undefined;
    });
    const panel = a.openChat('fake-evil-text');
    await waitForStatus(panel, 'connected', connected);
    // The first prompt asks for permission; the second asks the questions.
    go();
    const first = panel.session.prompt('go');
    await waitFor('the permission request', () => panel.session.transcript.items.find((i) => i.kind === 'permission'));
    await panel.session.cancel();
    assert.equal(await first, 'cancelled');
    const recorded = readRecord('evil-text').length;
    assert.equal(await panel.session.prompt('ask'), 'end_turn');
    assert.deepEqual(dialogs.map((d) => d.kind), ['modal', 'pick', 'modal']);
    for (const [n, d] of dialogs.entries()) {
      inert(`dialog ${n}: message`, d.message);
      inert(`dialog ${n}: detail`, d.detail);
      inert(`dialog ${n}: title`, d.title);
      inert(`dialog ${n}: placeholder`, d.placeHolder);
      for (const i of d.items) inert(`dialog ${n}: item`, i);
    }
    assert.equal(seen(dialogs[0]!.message), 'Fake: evil-text asks: [Run me](command:workbench.action.terminal.new) $(check) **now**');
    assert.equal(seen(dialogs[1]!.items[0]), '$(check) [A](command:workbench.action.terminal.new)');
    assert.match(seen(dialogs[2]!.detail), /^\[Open\]\(command:workbench\.action\.terminal\.new\) \$\(globe\)\n/);
    const rec = readRecord('evil-text').slice(recorded);
    const asked = new Set(rec.filter((r) => r.dir === 'out' && r.msg?.method === 'elicitation/create').map((r) => r.msg.id));
    const answers = rec.filter((r) => r.dir === 'in' && asked.has(r.msg?.id) && r.msg.method === undefined).map((r) => r.msg.result);
    assert.deepEqual(answers, [{ action: 'accept', content: { choice: 'a' } }, { action: 'decline' }], 'the escaped option still answers with its value');
  });

  it('the access question: the agent’s name and path are text', async () => {
    const a = await api();
    const q: AccessQuestion = { agentName: '$(zap) [Agent](command:x)', action: 'write', path: '/w/[p](command:workbench.action.terminal.new)/$(zap)', reason: 'protected', glob: '**/.vscode/**' };
    const text = a.testing.accessQuestionText(q);
    inert('the access question', text);
    assert.equal(seen(text), '$(zap) [Agent](command:x) wants to write /w/[p](command:workbench.action.terminal.new)/$(zap), a protected path (**/.vscode/**).');
    inert('the access question (outside)', a.testing.accessQuestionText({ ...q, reason: 'outside', action: 'read' }));
  });

  it('Add Folder to Agent Session: a refusal names a folder called like a command link as text', async () => {
    const a = await api();
    const panel = a.openChat('fake-context-folders');
    await waitForStatus(panel, 'connected', connected);
    // Inside the workspace folder (already among the session's folders) and a file (not a folder): each refusal names it.
    const ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const evil = path.join(ws, '[x](command:workbench.action.terminal.new) $(zap)');
    const evilFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-evil-')), '[y](command:workbench.action.terminal.new)');
    fs.mkdirSync(evil, { recursive: true });
    fs.writeFileSync(evilFile, 'a file');
    try {
      for (const [folder, why] of [[evil, "is already among the session's folders."], [evilFile, 'is not a folder.']] as const) {
        const before = a.testing.messages().length;
        await vscode.commands.executeCommand('acpAgents.addFolderToSession', vscode.Uri.file(folder));
        const shown = await waitFor('the refusal', () => a.testing.messages().slice(before).find((m) => m.severity === 'error'));
        inert('the Add Folder refusal', shown.message);
        assert.equal(seen(shown.message), `${folder} ${why}`, 'the words are all there');
      }
    } finally {
      fs.rmSync(evil, { recursive: true, force: true });
      fs.rmSync(path.dirname(evilFile), { recursive: true, force: true });
    }
  });
});
