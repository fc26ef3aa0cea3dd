// acpAgents.trace is read from user settings only: a repository cannot switch on
// a full trace of what its agents are sent and say.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, closeAllEditors, connected, waitFor, waitForStatus } from './helpers';

const cfg = () => vscode.workspace.getConfiguration('acpAgents');

describe('User-only settings: acpAgents.trace', function () {
  this.timeout(90_000);

  it('a folder’s .vscode/settings.json that sets trace "verbose" is ignored (and said so); the user’s own value still traces', async () => {
    const a = await api();
    const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const dir = path.join(folder, '.vscode');
    const file = path.join(dir, 'settings.json');
    const hadDir = fs.existsSync(dir);
    const prior = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    const pkg = vscode.extensions.all.find((e) => e.packageJSON?.name === 'acp-agents')?.packageJSON;
    assert.equal(pkg?.contributes.configuration.properties['acpAgents.trace']?.scope, 'machine');
    try {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(file, JSON.stringify({ 'acpAgents.trace': 'verbose' }, null, 2));
      await vscode.commands.executeCommand('acpAgents.refreshSessions');
      await waitFor('the log to say the workspace value is ignored', () => a.testing.logLines().some((l) => /sets acpAgents\.trace; it is ignored/.test(l)) || undefined);

      // The trace is chosen when an agent starts: start it afresh under the folder's value.
      await a.testing.stopAllAgents();
      const panel = a.openChat('demo');
      await waitForStatus(panel, 'connected', connected);
      const probe = `trace-probe-${Date.now()}`;
      await panel.session.prompt(probe);
      assert.ok(!a.testing.traceLines().some((l) => l.includes(probe)), 'the prompt is not traced');
      panel.panel.dispose();

      // The same prompt with the user's own setting is traced: the check above could see it.
      await cfg().update('trace', 'verbose', vscode.ConfigurationTarget.Global);
      await a.testing.stopAllAgents();
      const panel2 = a.openChat('demo');
      await waitForStatus(panel2, 'connected', connected);
      const probe2 = `trace-probe-user-${Date.now()}`;
      const stop = await panel2.session.prompt(probe2);
      const lines = a.testing.traceLines();
      assert.ok(lines.some((l) => l.includes(probe2)), `traced with the user setting (${String(stop)}; ${JSON.stringify(cfg().inspect('trace'))}): ${lines.slice(-4).join(' ¶ ')}`);
      panel2.panel.dispose();
    } finally {
      await cfg().update('trace', undefined, vscode.ConfigurationTarget.Global);
      if (prior !== undefined) fs.writeFileSync(file, prior);
      else fs.rmSync(file, { force: true });
      if (!hadDir) fs.rmSync(dir, { recursive: true, force: true });
      await closeAllEditors();
      await a.testing.stopAllAgents();
    }
  });
});
