/**
 * Checks a value against an agent-supplied regular expression (an elicitation
 * field's `pattern`) off the extension host's thread, with a time limit: a
 * pattern built for catastrophic backtracking costs a worker, never the UI.
 * No `vscode` import.
 */
import { Worker } from 'node:worker_threads';

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ id, pattern, value }) => {
  let r;
  try { r = new RegExp(pattern, 'u').test(value) ? 'match' : 'no-match'; } catch { r = 'invalid'; }
  parentPort.postMessage({ id, r });
});`;

export type PatternResult = 'match' | 'no-match' | 'invalid' | 'timeout';

const MAX_PATTERN = 2_000;
const MAX_VALUE = 20_000;

let worker: Worker | undefined;
let seq = 0;
/** Checks waiting for an answer, with the worker each was sent to. */
const waiting = new Map<number, { readonly worker: Worker; readonly resolve: (r: PatternResult) => void }>();

function getWorker(): Worker {
  if (worker) return worker;
  const w = new Worker(WORKER_SOURCE, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 32 } });
  w.on('message', (m: { id: number; r: PatternResult }) => {
    waiting.get(m.id)?.resolve(m.r);
    waiting.delete(m.id);
  });
  const fail = () => {
    if (worker === w) worker = undefined;
    // Only this worker's checks: a worker ended after a time-out exits while its successor already works.
    for (const [id, entry] of waiting) {
      if (entry.worker !== w) continue;
      entry.resolve('timeout');
      waiting.delete(id);
    }
  };
  w.on('error', fail);
  w.on('exit', fail);
  // Last: a 'message' listener added after unref() holds the process open again (an idle worker must never keep Node alive).
  w.unref();
  worker = w;
  return w;
}

/** Tests `value` against `pattern` (Unicode mode, like JSON Schema); 'timeout' after `timeoutMs`. */
export function testPattern(pattern: string, value: string, timeoutMs = 500): Promise<PatternResult> {
  if (pattern.length > MAX_PATTERN || value.length > MAX_VALUE) return Promise.resolve('timeout');
  const w = getWorker();
  const id = ++seq;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      if (!waiting.has(id)) return;
      waiting.delete(id);
      // The worker is stuck in the regex: end it (a new one serves the next check).
      if (worker === w) worker = undefined;
      void w.terminate();
      resolve('timeout');
    }, timeoutMs);
    waiting.set(id, {
      worker: w,
      resolve: (r) => {
        clearTimeout(timer);
        resolve(r);
      },
    });
    w.postMessage({ id, pattern, value });
  });
}
