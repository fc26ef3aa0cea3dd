import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, closeAllEditors, EXTENSION_ID, waitFor } from './helpers';

interface Contributes {
  commands: { command: string; title: string; category?: string }[];
  configuration: { properties: Record<string, { scope?: string }> };
  views: Record<string, { id: string }[]>;
  keybindings?: { command: string; key: string; mac?: string; when?: string }[];
}

describe('Foundation: the extension in a real VS Code host', () => {
  before(async () => {
    // The host identifies itself in the output: this is a real VS Code.
    console.log(`running in ${vscode.env.appName} ${vscode.version} (uiKind ${vscode.UIKind[vscode.env.uiKind]}, remote ${vscode.env.remoteName ?? 'none'})`);
    await api();
  });

  afterEach(closeAllEditors);

  it('runs inside a real VS Code extension host and activates', async () => {
    assert.match(vscode.version, /^\d+\.\d+\.\d+/);
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, 'extension is installed');
    assert.equal(ext.isActive, true);
    assert.equal((await api()).version, ext.packageJSON.version);
  });

  it('registers every contributed command under acpAgents.', async () => {
    const contributes = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes as Contributes;
    const registered = new Set(await vscode.commands.getCommands(true));
    const ids = contributes.commands.map((c) => c.command);
    assert.deepEqual(ids.sort(), [
      'acpAgents.addFolderToSession',
      'acpAgents.allowPermission',
      'acpAgents.cancel',
      'acpAgents.copyDiagnostics',
      'acpAgents.deleteSession',
      'acpAgents.exportTranscript',
      'acpAgents.finishWorktree',
      'acpAgents.focusComposer',
      'acpAgents.forkSession',
      'acpAgents.installAgent',
      'acpAgents.keepFile',
      'acpAgents.keepHunk',
      'acpAgents.manageMcpTrust',
      'acpAgents.newSession',
      'acpAgents.newSessionInWorktree',
      'acpAgents.nextChange',
      'acpAgents.openSession',
      'acpAgents.pinAgentVersion',
      'acpAgents.previousChange',
      'acpAgents.refreshSessions',
      'acpAgents.rejectPermission',
      'acpAgents.restartAgent',
      'acpAgents.resumeSession',
      'acpAgents.sessionsThatChangedFile',
      'acpAgents.showDiagnostics',
      'acpAgents.showLog',
      'acpAgents.signIn',
      'acpAgents.signOut',
      'acpAgents.undoFile',
      'acpAgents.undoHunk',
      'acpAgents.uninstallAgent',
      'acpAgents.unpinAgentVersion',
      'acpAgents.updateAgents',
    ]);
    for (const id of ids) assert.ok(registered.has(id), `${id} is registered`);
    for (const c of contributes.commands) assert.equal(c.category, 'ACP');
    // Every default key runs a contributed command; keys that could clash elsewhere only apply in their context.
    for (const k of contributes.keybindings ?? []) {
      assert.ok(ids.includes(k.command), `${k.key} runs ${k.command}`);
      if (/^alt\+/.test(k.key)) assert.match(k.when ?? '', /acpAgents\./, `${k.key} is scoped by a when clause`);
      // AltGr is Ctrl+Alt on Windows: such a key would take characters (ń, ą, …) from every editor.
      assert.doesNotMatch(k.key, /(^|\s)ctrl\+(shift\+)?alt\+/, `${k.key} does not take an AltGr character`);
      // Escape is the webview's (it knows whether the @-mention list took it), never a workbench key.
      assert.notEqual(k.key, 'escape');
      // Alt+] / Alt+[ are the inline suggestion's next / previous while one is shown.
      if (/^alt\+[[\]]$/.test(k.key)) assert.match(k.when ?? '', /!inlineSuggestionVisible/, `${k.key} yields to an inline suggestion`);
    }
    assert.ok((contributes.keybindings ?? []).length >= 6);
  });

  it('declares agent commands as machine-scoped settings and lists every agent of the user settings (a workspace value: settingsScope.test.ts)', async () => {
    const contributes = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes as Contributes;
    assert.equal(contributes.configuration.properties['acpAgents.agents']?.scope, 'machine');
    const agents = (await api()).agents();
    // The harness writes its agents to the user settings: every one of them is listed, by its id and name.
    const user = (vscode.workspace.getConfiguration('acpAgents').inspect<{ id: string; name: string }[]>('agents')?.globalValue ?? []).map((u) => `${u.id}=${u.name}`);
    assert.ok(user.length > 10, `the harness's agents: ${user.length}`);
    const listed = new Set(agents.map((a) => `${a.id}=${a.name}`));
    assert.deepEqual(user.filter((u) => !listed.has(u)), [], 'every user agent is listed');
    assert.ok(agents.some((a) => a.id === 'demo' && a.name === 'Demo Agent'), `demo agent configured: ${JSON.stringify(agents.map((a) => a.id))}`);
  });

  it('opens a chat panel of viewType acpAgents.chat whose script runs under the CSP', async () => {
    const panel = (await api()).openChat('demo');
    const tab = await waitFor('the chat tab', () => {
      const t = vscode.window.tabGroups.activeTabGroup.activeTab;
      return t?.input instanceof vscode.TabInputWebview ? t : undefined;
    });
    assert.ok((tab.input as vscode.TabInputWebview).viewType.endsWith('acpAgents.chat'));
    assert.equal(tab.label, 'Demo Agent');
    // `ready` is posted by dist/webview.js: it only arrives if the nonce'd script loaded.
    await waitFor('the webview script to report ready', () => panel.isReady, 20_000);
    const html = panel.panel.webview.html.replace(/&#39;/g, "'").replace(/&#34;/g, '"');
    const nonce = /<script nonce="([^"]+)"/.exec(html)?.[1];
    assert.ok(nonce && nonce.length >= 16, 'the script carries a nonce');
    assert.ok(html.includes(`script-src 'nonce-${nonce}'`), 'the CSP allows exactly that nonce');
    assert.doesNotMatch(html, /unsafe-inline|unsafe-eval/);
  });

  it('ACP: New Session with an agent id opens a panel for it', async () => {
    const a = await api();
    const before = a.panels().length;
    // The harness opens a two-folder workspace: answer the folder question.
    a.testing.setFolderPicker(async () => vscode.workspace.workspaceFolders?.[0]);
    try {
      await vscode.commands.executeCommand('acpAgents.newSession', 'demo');
    } finally {
      a.testing.setFolderPicker(undefined);
    }
    assert.equal(a.panels().length, before + 1);
    assert.equal(a.panels().at(-1)?.agentId, 'demo');
  });

  it('contributes the Sessions view in the ACP Agents container, which VS Code can focus, and whose tree lists the agents', async () => {
    const contributes = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes as Contributes;
    assert.deepEqual(contributes.views.acpAgents?.map((v) => v.id), ['acpAgents.sessions']);
    // Focusing the view works only when VS Code knows it (an unknown view's focus command rejects).
    await vscode.commands.executeCommand('acpAgents.sessions.focus');
    // What the view's tree gives VS Code for an agent: its name, and the command a click runs.
    const { agent } = (await api()).testing.treeItems('demo');
    assert.equal(typeof agent.label === 'string' ? agent.label : agent.label?.label, 'Demo Agent');
    assert.match(agent.contextValue ?? '', /^acp(Registry)?Agent$/);
  });
});
