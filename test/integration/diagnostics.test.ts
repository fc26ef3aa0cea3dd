// Agent diagnostics in the real host: ACP: Copy Diagnostics puts a report on the
// clipboard with the methods exercised and none of the agent's secrets, and
// ACP: Show Agent Diagnostics opens it as a read-only Markdown document that follows.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, connected, endSessions, waitFor, waitForStatus } from './helpers';

const cfg = () => vscode.workspace.getConfiguration('acpAgents');
const AGENT = 'fake-diagnostics';
const SECRETS = ['sk-proj-diagSECRET0123456789abcdef', 'ghp_diagSECRET0123456789abcdefghij', 'diagQuietKey42xyz', 'diagTurnSecret99', 'capSecretZx9vQ2mK7pL4', 'mcp-env-secret-424242'];

/** A row of the methods table: `| dir | `method` | requests | notifications | answered | errors… | no answer |`. */
function row(md: string, dir: string, method: string): string[] | undefined {
  const line = md.split('\n').find((l) => l.startsWith(`| ${dir} | \`${method}\` |`));
  return line?.split('|').slice(3, -1).map((c) => c.trim());
}

describe('Agent diagnostics: Show and Copy', function () {
  this.timeout(60_000);

  afterEach(async () => {
    await endSessions();
    await cfg().update('mcpServers', undefined, vscode.ConfigurationTarget.Global);
  });

  it('Copy Diagnostics writes the methods exercised, the MCP servers and redacted stderr as Markdown, with no secret', async () => {
    const a = await api();
    await cfg().update(
      'mcpServers',
      { files: { type: 'stdio', command: process.env.ACP_TEST_NODE, args: ['srv.js'], env: { SERVICE_TOKEN: 'mcp-env-secret-424242' } }, remote: { type: 'http', url: 'https://mcp.example/x' } },
      vscode.ConfigurationTarget.Global,
    );
    const panel = a.openChat(AGENT);
    await waitForStatus(panel, 'connected', connected);
    assert.equal(await panel.session.prompt('go'), 'end_turn');
    await vscode.env.clipboard.writeText('');
    await vscode.commands.executeCommand('acpAgents.copyDiagnostics', AGENT);
    const md = await vscode.env.clipboard.readText();

    assert.match(md, /^# ACP agent diagnostics/);
    assert.match(md, /agentInfo\.version: 1\.2\.3/);
    assert.match(md, /protocolVersion: 1/);
    assert.deepEqual(row(md, 'client → agent', 'initialize'), ['1', '0', '1', '0', '0']);
    assert.deepEqual(row(md, 'client → agent', 'session/prompt'), ['1', '0', '1', '0', '0']);
    assert.deepEqual(row(md, 'agent → client', 'session/update')?.slice(0, 2), ['0', '2'], 'each update counts');
    const reads = row(md, 'agent → client', 'fs/read_text_file')!;
    assert.deepEqual([reads[0], reads[2], reads[3]?.replace(/ \(.*\)$/, '')], ['2', '1', '1'], `one read worked, one failed: ${reads.join(' | ')}`);
    assert.deepEqual(row(md, 'agent → client', 'x/invented_method'), ['1', '0', '0', '1 (-32601 ×1)', '0'], 'a method the client does not serve');
    assert.match(md, /\| agent \| `sessionCapabilities\.list` \| yes \| `session\/list` \|/);
    // Live, from the open session: the relay saw the agent never start it during the turn.
    assert.match(md, /files: never-started — stdio; The agent did not start it during a whole turn\. \[session /);
    assert.match(md, /remote: left-out — is an HTTP server, and the agent does not support HTTP MCP servers/);
    assert.match(md, /starting; OPENAI_API_KEY=«redacted»/, 'stderr is there, redacted');
    assert.match(md, /\[click\]\(command:workbench\.action\.terminal\.new\)/, 'hostile text is shown as text…');
    assert.ok(!/^\[click\]/m.test(md.replace(/^(`{3,})text\n[\s\S]*?\n\1$/gm, '')), '…inside a fence only');
    for (const s of SECRETS) assert.ok(!md.includes(s), `${s} is in the report`);
  });

  it('Show Agent Diagnostics opens a read-only Markdown document that follows what the agent does', async () => {
    const a = await api();
    const panel = a.openChat(AGENT);
    await waitForStatus(panel, 'connected', connected);
    assert.equal(await panel.session.prompt('go'), 'end_turn');
    await vscode.commands.executeCommand('acpAgents.showDiagnostics', AGENT);
    const editor = await waitFor('the diagnostics document', () => vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === 'acp-diagnostics'));
    const doc = editor.document;
    assert.equal(doc.languageId, 'markdown');
    // Read-only: typing into its editor changes nothing …
    await vscode.window.showTextDocument(doc, { preview: false });
    const shown = doc.getText();
    await vscode.commands.executeCommand('type', { text: 'TYPED-INTO-DIAGNOSTICS' });
    // … while the same typing does change an ordinary document (so the check can see it; its change lands after the first one would).
    const scratch = await vscode.workspace.openTextDocument({ content: '' });
    await vscode.window.showTextDocument(scratch, { preview: false });
    await vscode.commands.executeCommand('type', { text: 'TYPED' });
    await waitFor('the ordinary document to take the typing', () => scratch.getText() === 'TYPED' || undefined);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    // The document refreshes every 2 s while visible, and its `generated:` line moves with each refresh:
    // the rest is what typing would have changed.
    const unstamped = (t: string) => t.replace(/^generated: .*$/m, 'generated: …');
    assert.ok(!doc.getText().includes('TYPED-INTO-DIAGNOSTICS'), 'the diagnostics document took no typing');
    assert.equal(unstamped(doc.getText()), unstamped(shown), 'the diagnostics document took no typing');
    assert.equal(doc.isDirty, false);
    assert.deepEqual(row(doc.getText(), 'client → agent', 'session/prompt')?.[0], '1');
    assert.equal(await panel.session.prompt('again'), 'end_turn');
    await waitFor('the document to show the second prompt', () => row(doc.getText(), 'client → agent', 'session/prompt')?.[0] === '2' || undefined);
    for (const s of SECRETS) assert.ok(!doc.getText().includes(s), `${s} is in the document`);
  });
});
