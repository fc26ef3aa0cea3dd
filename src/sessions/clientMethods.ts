/**
 * Every agent → client method this client serves: the tables of the parts that
 * serve them, in one list (agents/clientMethods.ts says how an entry looks and
 * how a call is routed). The capabilities `initialize` sends follow from it.
 * A new method is an entry in its part's table; a new part with methods adds
 * its table here. No `vscode` import.
 */
import { baseClientCapabilities } from '../acp/capabilities';
import { DECLINED_METHODS, fillClientCapabilities, type AnyClientMethod, type ClientCapabilities } from '../agents/clientMethods';
import { AGENT_REQUEST_METHODS } from './parts/agentRequests';
import { ELICITATION_METHODS } from './parts/elicitations';
import { PERMISSION_METHODS } from './parts/permissions';

export const CLIENT_METHODS: readonly AnyClientMethod[] = [...PERMISSION_METHODS, ...AGENT_REQUEST_METHODS, ...ELICITATION_METHODS];

/** The client capabilities sent in `initialize` (the runtime adds the same to the base; the diagnostics show this). */
export function clientCapabilities(): ClientCapabilities {
  return fillClientCapabilities(baseClientCapabilities(), [...CLIENT_METHODS, ...DECLINED_METHODS]);
}
