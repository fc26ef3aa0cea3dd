// Our default keys against VS Code's own, read from the default keybindings of
// the host the tests run in (a browser-hosted VS Code: code-server).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { parseJsonc } from '../../src/shared/jsonc';
import { api, closeAllEditors, EXTENSION_ID, waitFor } from './helpers';

interface Binding {
  readonly command: string;
  readonly key: string;
  readonly mac?: string;
  readonly when?: string;
}

/** One chord as a comparable string: lower case, modifiers in a fixed order. */
function normalize(key: string): string {
  const order = ['ctrl', 'shift', 'alt', 'meta', 'cmd', 'win'];
  return key
    .toLowerCase()
    .trim()
    .split(/\s+/)
    .map((chord) => {
      const parts = chord.split('+');
      const last = parts.pop() ?? '';
      return [...parts.sort((a, b) => order.indexOf(a) - order.indexOf(b)), last].join('+');
    })
    .join(' ');
}

describe('Keybindings: ours collide with none of VS Code', () => {
  afterEach(closeAllEditors);

  it("the default keybindings of this host leave our keys free, and Allow / Reject need the panel's focus (or none in an editor or terminal)", async () => {
    await api();
    const ours = (vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes as { keybindings: Binding[] }).keybindings;
    await vscode.commands.executeCommand('workbench.action.openDefaultKeybindingsFile');
    const doc = await waitFor('the default keybindings', () => {
      const d = vscode.window.activeTextEditor?.document;
      return d && d.getText().includes('"command"') ? d : undefined;
    });
    // Never active: `when: "false"` (a binding switched off in its contribution).
    const defaults = (parseJsonc(doc.getText()) as Binding[]).filter((b) => !b.command.startsWith('acpAgents.') && !b.command.startsWith('-') && b.when?.trim() !== 'false');
    assert.ok(defaults.length > 500, `${defaults.length} default keybindings read`);
    // The file lists the keys of the platform the workbench runs on: ours for that platform are `key` (this host is not a Mac).
    const taken = new Map<string, string[]>();
    for (const d of defaults) {
      const k = normalize(d.key);
      taken.set(k, [...(taken.get(k) ?? []), `${d.command}${d.when ? ` (when ${d.when})` : ''}`]);
    }
    // The comparison finds what is there: the Command Palette's own key.
    assert.ok(taken.get(normalize('shift+ctrl+p'))?.some((c) => c.startsWith('workbench.action.showCommands')), 'Ctrl+Shift+P is found');
    const clashes: string[] = [];
    for (const b of ours) {
      const k = normalize(b.key);
      const scopedToPanel = /activeWebviewPanelId == '?acpAgents\.chat'?/.test(b.when ?? '') || /acpAgents\.(reviewing)/.test(b.when ?? '');
      // A key that works anywhere must be free; one that works only in our own context may share a key VS Code binds elsewhere.
      if (!scopedToPanel && taken.has(k)) clashes.push(`${b.key} (${b.command}) is also ${taken.get(k)!.join(', ')}`);
      // A chord must not start with a key VS Code binds alone (its first stroke would be taken).
      const first = k.split(' ')[0]!;
      if (k.includes(' ') && taken.has(first)) clashes.push(`${b.key} (${b.command}): its first stroke ${first} is ${taken.get(first)!.join(', ')}`);
    }
    assert.deepEqual(clashes, []);
    // What this Linux host cannot show: New Untitled File is Ctrl+K N in VS Code for the web on Windows, Cmd+Alt+N on a Mac.
    const newSession = ours.find((o) => o.command === 'acpAgents.newSession');
    assert.ok(newSession);
    assert.notEqual(normalize(newSession.key), 'ctrl+k n');
    assert.notEqual(normalize(newSession.mac ?? ''), normalize('cmd+alt+n'));
    for (const id of ['acpAgents.allowPermission', 'acpAgents.rejectPermission']) {
      const b = ours.find((o) => o.command === id);
      assert.ok(b, id);
      assert.match(b.when ?? '', /acpAgents\.permissionPending/);
      assert.match(b.when ?? '', /activeWebviewPanelId == '?acpAgents\.chat'?/, `${id}: works while the panel has the focus`);
      for (const excluded of ['!editorTextFocus', '!terminalFocus', '!inputFocus']) assert.ok((b.when ?? '').includes(excluded), `${id}: not while typing (${excluded})`);
    }
  });
});
