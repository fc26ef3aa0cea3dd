import * as vscode from 'vscode';
import type { AcpAgentsApi } from '../../src/extension';
import type { TestHooks } from '../../src/testHooks';

export const EXTENSION_ID = 'acp-agents.acp-agents';

/** The API with its test hooks, which only the test build (esbuild --test-hooks) has. */
export type TestApi = AcpAgentsApi & { readonly testing: TestHooks };

export async function api(): Promise<TestApi> {
  const ext = vscode.extensions.getExtension<AcpAgentsApi>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not installed in this host`);
  const a = ext.isActive ? ext.exports : await ext.activate();
  if (!a.testing) throw new Error('the extension under test has no test hooks: build it with `node esbuild.mjs --test-hooks`');
  return a as TestApi;
}

export async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false && v !== null) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ChatPanel } from '../../src/chat/chatPanel';
import type { PermissionItem } from '../../src/shared/transcriptTypes';
import type { PanelStatus } from '../../src/shared/webviewProtocol';

/** Where the harness keeps the fake agents' records (one JSONL file per scenario). */
/** A test's end: every editor and chat panel closed, every agent stopped. */
export async function endSessions(): Promise<void> {
  const a = await api();
  await closeAllEditors();
  for (const p of a.panels()) p.panel.dispose();
  await a.testing.stopAllAgents();
}

export function recordFile(scenario: string): string {
  const dir = process.env.ACP_TEST_TMP;
  if (!dir) throw new Error('ACP_TEST_TMP is not set: run the integration tests through the harness');
  return path.join(dir, `${scenario}.jsonl`);
}

export function readRecord(scenario: string): any[] {
  const file = recordFile(scenario);
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** Pids of every fake agent process started for a scenario. */
export function startedPids(scenario: string): number[] {
  return readRecord(scenario)
    .filter((r) => r.dir === 'start')
    .map((r) => r.pid as number);
}

export { isAlive } from '../support/processes';

export async function waitForStatus(panel: ChatPanel, what: string, predicate: (s: PanelStatus) => boolean, timeoutMs = 20_000): Promise<PanelStatus> {
  return await waitFor(`${what} (status now: ${JSON.stringify(panel.status)})`, () => (predicate(panel.status) ? panel.status : undefined), timeoutMs);
}

export const connected = (s: PanelStatus) => s.inputEnabled && /^Connected to /.test(s.text);
export const failed = (s: PanelStatus) => s.severity === 'error';

/**
 * Lets files written just now (a test's `git init` and commits) age past the
 * slack a turn gives late disk events (changes within 250 ms of its start count
 * as the turn's): they are the test's setup, not the agent's work.
 */
/**
 * Dates the files (and folders, recursively) a test wrote before its turn 10 s
 * back: the file watcher may report those writes late, inside the turn, and only
 * their mtime, older than the turn's start, says they were not the agent's
 * (ChangeTracker's MTIME_SLACK_MS). A sleep would only make it likely. Of a
 * `.git`, only what the watcher reports (its hooks and config: an agent's write
 * there is a change) — once, a `git init` just before a turn listed them.
 */
export function backdate(...paths: string[]): void {
  const then = new Date(Date.now() - 10_000);
  const visit = (p: string): void => {
    const st = fs.lstatSync(p);
    if (st.isDirectory()) {
      for (const e of fs.readdirSync(p)) {
        if (e !== '.git') visit(path.join(p, e));
        else for (const watched of ['hooks', 'config']) if (fs.existsSync(path.join(p, e, watched))) visit(path.join(p, e, watched));
      }
    }
    if (!st.isSymbolicLink()) fs.utimesSync(p, then, then);
  };
  for (const p of paths) visit(p);
}

/** Answers every permission request of the panel's session with its allow-once option, until stopped. */
export function allowOnce(panel: ChatPanel): { asked: PermissionItem[]; stop(): void } {
  const asked: PermissionItem[] = [];
  const timer = setInterval(() => {
    for (const i of panel.session.transcript.items) {
      if (i.kind !== 'permission' || i.state !== 'pending' || asked.includes(i)) continue;
      asked.push(i);
      const option = i.options.find((o) => o.kind === 'allow_once');
      if (option) panel.session.permissions.answer(i.id, option.optionId);
    }
  }, 50);
  return { asked, stop: () => clearInterval(timer) };
}

/**
 * A log line still to come: `wait` resolves with a line `test` matches, written after this call —
 * the positive signal a decision was made.
 */
export function nextLogLine(a: TestApi, test: (line: string) => boolean): { wait(what: string): Promise<string> } {
  // Lines after a mark, not a count of matches: the log keeps only its last 1,000 lines, so once it is full an old match
  // can drop out as the new one comes (once, in a full run, that hid the line waited for).
  const mark = a.testing.logMark();
  return { wait: (what) => waitFor(what, () => a.testing.logLinesSince(mark).filter(test).at(-1)) };
}
