/**
 * Steering: "Send now" puts a queued message into the running turn instead of
 * stopping it, where the agent serves `_session/steering` (claude-agent-acp and
 * codex-acp advertise it in their `initialize` result's top-level
 * `_meta.steering.supported`). Always sent with the `promptRequired` opt-in:
 * - `injected`: the message joined the running turn; the agents send no
 *   `user_message_chunk` for it (ACP v1), so it is shown here, and the running
 *   prompt's one answer ends the turn;
 * - `promptRequired`: no turn ran any more (the steer lost the race with its
 *   end): the caller sends it as an ordinary `session/prompt`;
 * - `startedNewTurn` (only an agent ignoring the opt-in): the agent runs it as
 *   a turn of its own, whose updates come with no prompt of ours to answer;
 * - an error, or an answer that is none of these: `failed`, and the caller falls
 *   back to stopping the turn and sending (as for an agent without steering).
 * No `vscode` import.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { errorText } from '../../acp/errors';
import type { AgentRuntime } from '../../agents/agentRuntime';
import type { ContentPart } from '../../shared/transcriptTypes';
import type { SessionCore } from '../sessionCore';

export type SteerResult = 'injected' | 'startedNewTurn' | 'promptRequired' | 'failed';

/** What "Send now" on a queued message does now: steer the running turn, stop it, or just send (no turn runs). */
export type SendNowMode = 'steer' | 'stop' | 'send';

/** Whether the agent advertised steering (decoded defensively: only a literal `true` counts). */
export function canSteer(rt: AgentRuntime | undefined): boolean {
  return rt?.initializeResult?.steering === true;
}

/** What Send now will do, for the queue strip. */
export function sendNowMode(core: Pick<SessionCore, 'runtime' | 'busy'>): SendNowMode {
  if (!core.busy()) return 'send';
  return canSteer(core.runtime()) ? 'steer' : 'stop';
}

/**
 * Sends `blocks` (the user's `text`, with `parts` to show) into the running turn.
 * Shown in the transcript and archived when the agent took it.
 */
export async function steer(core: SessionCore, rt: AgentRuntime, sessionId: string, text: string, parts: ContentPart[], blocks: acp.ContentBlock[]): Promise<SteerResult> {
  let outcome: SteerResult;
  try {
    outcome = await rt.connection.steer(sessionId, blocks);
  } catch (err) {
    core.log(`steer: _session/steering failed (${errorText(err)}): stopping the turn and sending the message instead`);
    return 'failed';
  }
  core.log(`steer: _session/steering answered ${outcome}`);
  if (outcome === 'promptRequired') return outcome;
  // The agent took it: shown (and archived) as the user's message, in the running turn or its own.
  core.emit(core.transcript().addUserPrompt(text, parts));
  core.services.archive.append(core.def.id, sessionId, { sessionUpdate: 'user_message_chunk', content: { type: 'text', text } });
  core.services.index.touch(core.def.id, sessionId, core.workingFolder());
  if (outcome === 'startedNewTurn') core.log('steer: the agent started a turn of its own for the message (it ignored the promptRequired opt-in); its updates come without a prompt to answer');
  return outcome;
}
