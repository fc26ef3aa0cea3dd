// "Needs you": a permission request, a question or a failure while the panel is hidden raises a
// notification naming the session (with Show) and marks the panel's tab;
// acpAgents.notifications turns it off.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ElicitationItem } from '../../src/shared/transcriptTypes';
import { api, closeAllEditors, connected, waitFor, waitForStatus } from './helpers';

describe('Needs you: notifications and the tab', function () {
  this.timeout(60_000);
  const cfg = () => vscode.workspace.getConfiguration('acpAgents');

  afterEach(async () => {
    await cfg().update('notifications', undefined, vscode.ConfigurationTarget.Global);
    await closeAllEditors();
    await (await api()).testing.stopAllAgents();
  });

  /** Opens an agent's panel, then a text editor over it in the same group: the panel is hidden. */
  async function hiddenPanel(agentId: string) {
    const a = await api();
    const panel = a.openChat(agentId);
    await waitForStatus(panel, 'connected', connected);
    const doc = await vscode.workspace.openTextDocument({ content: 'something else', language: 'plaintext' });
    await vscode.window.showTextDocument(doc, { preview: false, viewColumn: panel.panel.viewColumn });
    await waitFor('the panel to be hidden', () => (!panel.panel.visible ? true : undefined));
    return { a, panel };
  }

  it('a permission request while the panel is hidden: a notification naming the session offers Show, and the tab says so', async () => {
    await cfg().update('notifications', true, vscode.ConfigurationTarget.Global);
    const { a, panel } = await hiddenPanel('fake-slow-permission');
    const before = a.testing.messages().length;
    const turn = panel.session.prompt('clean up');
    const shown = await waitFor('the notification', () => a.testing.messages().slice(before).find((m) => /asks for permission/.test(m.message)));
    assert.equal(shown.message, 'Fake: slow-permission asks for permission: Delete build/');
    assert.deepEqual(shown.actions, ['Show']);
    assert.equal(panel.attention?.needsYou, true);
    assert.match((panel.panel.iconPath as vscode.Uri).path, /needs-you\.svg$/);
    await panel.session.cancel();
    assert.equal(await turn, 'cancelled');
  });

  it('Show on a needs-you notification brings the hidden panel back, in front of the editor that hid it', async () => {
    await cfg().update('notifications', true, vscode.ConfigurationTarget.Global);
    const { a, panel } = await hiddenPanel('fake-slow-permission');
    const picked: string[] = [];
    // The user picks the notification's action (the answer goes where VS Code's would).
    a.testing.setMessageAnswer(async (shown) => (/asks for permission/.test(shown.message) ? (picked.push(shown.message), 'Show') : undefined));
    try {
      const turn = panel.session.prompt('clean up');
      await waitFor('the panel to be shown again', () => (panel.panel.visible && panel.panel.active ? true : undefined));
      assert.deepEqual(picked, ['Fake: slow-permission asks for permission: Delete build/'], 'shown by the notification’s Show');
      await panel.session.cancel();
      assert.equal(await turn, 'cancelled');
    } finally {
      a.testing.setMessageAnswer(undefined);
    }
  });

  it('a turn that ends while the panel is hidden is told; one the user stopped is not', async () => {
    await cfg().update('notifications', true, vscode.ConfigurationTarget.Global);
    const { a, panel } = await hiddenPanel('fake-queue');
    const before = a.testing.messages().length;
    assert.equal(await panel.session.prompt('one'), 'end_turn');
    await waitFor('the notification', () => a.testing.messages().slice(before).find((m) => m.message === 'Fake: queue finished its turn.'));
    const stopped = panel.session.prompt('two');
    await waitFor('the turn running', () => panel.session.isBusy || undefined);
    const mark = a.testing.messages().length;
    await panel.session.cancel();
    assert.equal(await stopped, 'cancelled');
    // No time to wait out: notifications follow the panel's status events in order, so the next turn's
    // "finished" is told after anything the stopped turn could have raised.
    assert.equal(await panel.session.prompt('three'), 'end_turn');
    await waitFor('the next turn’s notification', () => a.testing.messages().slice(mark).find((m) => m.message === 'Fake: queue finished its turn.'));
    assert.deepEqual(a.testing.messages().slice(mark).map((m) => m.message), ['Fake: queue finished its turn.'], 'only the turn that ended by itself is told');
  });

  it('a question (elicitation) while the panel is hidden: a notification with its message, and the tab says so', async () => {
    await cfg().update('notifications', true, vscode.ConfigurationTarget.Global);
    const { a, panel } = await hiddenPanel('fake-elicit');
    const before = a.testing.messages().length;
    const turn = panel.session.prompt('deploy it');
    const shown = await waitFor('the notification', () => a.testing.messages().slice(before).find((m) => /asks:/.test(m.message)));
    assert.equal(shown.message, 'Fake: elicit asks: Configure the deploy');
    assert.deepEqual(shown.actions, ['Show']);
    assert.equal(panel.attention?.needsYou, true);
    assert.match((panel.panel.iconPath as vscode.Uri).path, /needs-you\.svg$/);
    // Both of its questions declined, the turn ends.
    for (const mode of ['form', 'url']) {
      const q = await waitFor(`the ${mode} question`, () => panel.session.transcript.items.find((i): i is ElicitationItem => i.kind === 'elicitation' && i.mode === mode && i.state === 'pending'));
      assert.equal(await panel.session.elicitations.answer(q.id, 'decline'), true);
    }
    assert.equal(await turn, 'end_turn');
  });

  it('the agent failing while the panel is hidden: a notification with what happened, once', async () => {
    await cfg().update('notifications', true, vscode.ConfigurationTarget.Global);
    const { a, panel } = await hiddenPanel('fake-exit-mid-prompt');
    const before = a.testing.messages().length;
    await panel.session.prompt('hi').catch(() => undefined);
    const shown = await waitFor('the notification', () => a.testing.messages().slice(before).find((m) => m.message.startsWith('Fake: exit-mid-prompt: ')));
    assert.match(shown.message, /exited/);
    assert.deepEqual(shown.actions, ['Show']);
    assert.equal(panel.attention?.needsYou, true);
    // The exit handled to its end before counting: the agent manager tells of it after the session's
    // own handlers ran (the same tick), and the prompt has settled above.
    await waitFor('the agent manager’s notice of the exit', () => a.testing.messages().slice(before).find((m) => m.severity === 'error' && !m.message.startsWith('Fake: exit-mid-prompt: ') && /exited/.test(m.message)));
    assert.equal(a.testing.messages().slice(before).filter((m) => m.message.startsWith('Fake: exit-mid-prompt: ')).length, 1, 'one notification for one failure');
  });

  it('with acpAgents.notifications off, nothing is shown and the tab shows only that a request waits, until it ends', async () => {
    await cfg().update('notifications', false, vscode.ConfigurationTarget.Global);
    const { a, panel } = await hiddenPanel('fake-slow-permission');
    const before = a.testing.messages().length;
    const turn = panel.session.prompt('clean up');
    await waitFor('the permission request', () => panel.session.transcript.items.find((i) => i.kind === 'permission'));
    // No time to wait out: attention.ts decides in the transcript's change event, in the tick the
    // request is added, before it can be seen here.
    assert.deepEqual(a.testing.messages().slice(before).map((m) => m.message), []);
    // The tab shows only that the request waits (a state, like the Sessions view's badge), which ends with it.
    assert.equal(panel.attention?.needsYou, true);
    await panel.session.cancel();
    assert.equal(await turn, 'cancelled');
    assert.deepEqual(a.testing.messages().slice(before).map((m) => m.message), [], 'nothing when the turn ends');
    await waitFor('the tab as it was', () => (panel.attention?.needsYou === false ? true : undefined));
    assert.match((panel.panel.iconPath as vscode.Uri).path, /activity\.svg$/);
    assert.deepEqual(a.testing.messages().slice(before).map((m) => m.message), [], 'nothing after it either');
    // A turn that ends on its own, hidden (with notifications on: "… finished its turn.", above): nothing either.
    const quiet = await hiddenPanel('fake-queue');
    const mark = a.testing.messages().length;
    assert.equal(await quiet.panel.session.prompt('one'), 'end_turn');
    await waitForStatus(quiet.panel, 'idle again', (s) => !s.busy && s.inputEnabled);
    assert.deepEqual(a.testing.messages().slice(mark).map((m) => m.message), [], 'nothing when a turn ends');
  });

  it('waiting on you: the Sessions view’s badge counts two waiting sessions, their rows and tabs say so, and each mark clears when it is answered', async () => {
    // Notifications off: the tab's mark here is the waiting one alone, not "something happened while you looked away".
    await cfg().update('notifications', false, vscode.ConfigurationTarget.Global);
    const a = await api();
    const agent = 'fake-slow-permission';
    const one = a.openChat(agent);
    await waitForStatus(one, 'connected', connected);
    const two = a.openChat(agent);
    await waitForStatus(two, 'connected', connected);
    assert.equal(a.testing.sessionsBadge(), undefined, 'nobody waits yet');
    const row = (p: typeof one) => a.testing.treeItems(agent).sessions.find((i) => i.id === `session:${agent}:${p.session.id}`);
    const pending = (p: typeof one) => p.session.transcript.items.find((i) => i.kind === 'permission' && i.state === 'pending');
    const turns = [one.session.prompt('clean up'), two.session.prompt('clean up')];
    await waitFor('both requests', () => (pending(one) && pending(two) ? true : undefined));
    const badge = await waitFor('a badge of 2', () => (a.testing.sessionsBadge()?.value === 2 ? a.testing.sessionsBadge() : undefined));
    assert.equal(badge?.tooltip, '2 sessions are waiting for you');
    for (const p of [one, two]) {
      const item = await waitFor('the session’s row', () => row(p));
      assert.match(String(item.description), /^waiting for you · /);
      assert.equal((item.iconPath as vscode.ThemeIcon).id, 'bell-dot');
      assert.equal(p.attention?.needsYou, true, 'the tab says so, whether it is looked at or not');
      assert.match((p.panel.iconPath as vscode.Uri).path, /needs-you\.svg$/);
    }
    // The first answered: its marks clear, the other's stay.
    assert.equal(one.session.permissions.answer(pending(one)!.id, 'yes'), true);
    await waitFor('a badge of 1', () => (a.testing.sessionsBadge()?.value === 1 ? true : undefined));
    assert.equal(a.testing.sessionsBadge()?.tooltip, '1 session is waiting for you');
    assert.doesNotMatch(String(row(one)?.description), /waiting for you/);
    assert.notEqual((row(one)?.iconPath as vscode.ThemeIcon).id, 'bell-dot');
    assert.match(String(row(two)?.description), /^waiting for you · /);
    // The second stopped (its request answered "cancelled"): no badge at all.
    await two.session.cancel();
    await waitFor('no badge', () => (a.testing.sessionsBadge() === undefined ? true : undefined));
    assert.doesNotMatch(String(row(two)?.description), /waiting for you/);
    assert.equal(two.attention?.needsYou, false);
    await one.session.cancel();
    assert.deepEqual(await Promise.all(turns), ['cancelled', 'cancelled']);
  });

  it('the status bar names the active session’s agent and state: ready, working with the time, needs you, error', async () => {
    const a = await api();
    const panel = a.openChat('fake-queue');
    await waitForStatus(panel, 'connected', connected);
    await waitFor('ready in the status bar', () => (a.testing.statusBar().text === '$(hubot) Fake: queue: ready' ? true : undefined));
    assert.equal(a.testing.statusBar().visible, true);
    const turn = panel.session.prompt('one');
    await waitFor('working in the status bar', () => (/^\$\(loading~spin\) Fake: queue: working 0:0\d$/.test(a.testing.statusBar().text) ? true : undefined));
    assert.equal(await turn, 'end_turn');
    await waitFor('ready again', () => (a.testing.statusBar().text.endsWith(': ready') ? true : undefined));
    const asking = a.openChat('fake-slow-permission');
    await waitForStatus(asking, 'connected', connected);
    const ask = asking.session.prompt('clean up');
    await waitFor('needs you', () => (a.testing.statusBar().text === '$(bell-dot) Fake: slow-permission: needs you' ? true : undefined));
    await asking.session.cancel();
    assert.equal(await ask, 'cancelled');
    const broken = a.openChat('fake-crash-initialize');
    await waitFor('error', () => (a.testing.statusBar().text === '$(error) Fake: crash-initialize: error' ? true : undefined));
    assert.match(a.testing.statusBar().tooltip, /exited with code 3/);
    assert.ok(broken);
  });
});
