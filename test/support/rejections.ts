// Unhandled promise rejections fail the run, in every tier that runs mocha in
// Node: the unit tier (test/unit/.mocharc.json requires this file; the harness
// adds the same root hooks) and the integration tier (inside the extension host,
// test/integration/index.ts). Mocha 12 re-emits a rejection it did not cause and
// then nobody fails anything: a rejection no test awaited passed silently.
//
// Each rejection is recorded when Node reports it, and pinned on the test that was
// running (or had just run): the root afterEach hook fails that test with it. One
// that surfaces after the last test fails the root after-all hook, or, later
// still, the runner's own check (`takeUnhandledRejections`).
import { inspect } from 'node:util';
import type * as Mocha from 'mocha';

const seen: Error[] = [];
/** The same rejection can be reported twice (mocha re-emits it to the other listeners). */
const counted = new WeakSet<Promise<unknown>>();
let installed = false;

function describeReason(reason: unknown): Error {
  const text = reason instanceof Error ? `${reason.name}: ${reason.message}` : inspect(reason);
  const err = new Error(`an unhandled promise rejection: ${text}`, { cause: reason });
  if (reason instanceof Error && reason.stack) err.stack = `${err.message}\n${reason.stack.split('\n').slice(1).join('\n')}`;
  return err;
}

/** Starts recording unhandled rejections in this process (once). */
export function trackUnhandledRejections(): void {
  if (installed) return;
  installed = true;
  process.on('unhandledRejection', (reason, promise) => {
    if (counted.has(promise)) return;
    counted.add(promise);
    seen.push(describeReason(reason));
  });
}

/** The rejections recorded since the last call, as one error (undefined when none). */
export function takeUnhandledRejections(): Error | undefined {
  const errors = seen.splice(0);
  if (errors.length === 0) return undefined;
  if (errors.length === 1) return errors[0];
  const err = new Error(`${errors.length} unhandled promise rejections:\n${errors.map((e) => `- ${e.message}`).join('\n')}`);
  err.stack = `${err.message}\n${errors.map((e) => e.stack ?? e.message).join('\n\n')}`;
  return err;
}

/** After a macrotask: a rejection made in the last moment of a test is reported by then. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Mocha root hooks (`require` this file, or `mocha.rootHooks(mochaHooks)`). */
export const mochaHooks: Mocha.RootHookObject = {
  beforeAll() {
    trackUnhandledRejections();
  },
  async afterEach(this: Mocha.Context) {
    await settle();
    const err = takeUnhandledRejections();
    // Fails the test that just ran (the hook's error is reported as the test's), and the run goes on.
    if (err) (this.test as Mocha.Hook).error(err);
  },
  async afterAll() {
    await settle();
    const err = takeUnhandledRejections();
    if (err) throw err;
  },
};
