/**
 * \`_session/steering\` (an extension of claude-agent-acp and codex-acp): whether
 * the agent serves it (its \`initialize\` answer's top-level
 * \`_meta.steering.supported\`), and how it took a message sent with it. The
 * request itself is \`SteeringRequest\` in \`protocol.ts\`. No \`vscode\` import.
 */
import { isObj } from './tolerant';

/** The top-level \`_meta\` of an \`initialize\` answer says \`steering.supported\` exactly \`true\`. */
export function decodeSteeringSupport(meta: Record<string, unknown> | undefined): boolean {
  return isObj(meta?.steering) && meta.steering.supported === true;
}

/** How the agent took a \`_session/steering\` message: put into the running turn, a new turn it started itself, or none running (prompt it). */
export type SteerOutcome = 'injected' | 'startedNewTurn' | 'promptRequired';

/** The answer to \`_session/steering\`; undefined when it is none of the known outcomes. */
export function decodeSteerOutcome(v: unknown): SteerOutcome | undefined {
  const o = isObj(v) ? v.outcome : undefined;
  return o === 'injected' || o === 'startedNewTurn' || o === 'promptRequired' ? o : undefined;
}
