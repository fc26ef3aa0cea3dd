/**
 * What the client advertises, and what the agent supports — in one place.
 * ACP rule: anything omitted (or null) is unsupported; capability markers are
 * objects (`{}` = supported) except a few legacy booleans. No `vscode` import.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { isObj } from './decode';

/**
 * The client capabilities sent in `initialize`. Each entry is advertised only
 * once the extension implements it (see the tests that pin this object).
 */
export function clientCapabilities(): acp.ClientCapabilities {
  return {
    // fs/read_text_file (open editors' unsaved text) and fs/write_text_file (undoable edits).
    fs: { readTextFile: true, writeTextFile: true },
    // terminal/create|output|wait_for_exit|kill|release, mirrored into VS Code terminals.
    terminal: true,
    // Terminal-type auth methods: run the agent's own login command in a VS Code terminal.
    auth: { terminal: true },
    // elicitation/create: form mode (each field asked with validation) and URL mode (consent first).
    elicitation: { form: {}, url: {} },
    // The chat panel renders notices and boolean config options.
    session: { configOptions: { boolean: {} }, notices: {} },
    // Legacy (Zed-era) opt-in for `_meta["terminal-auth"]` on agent-type methods.
    _meta: { 'terminal-auth': true },
  };
}

const marker = (v: unknown): boolean => isObj(v);
const flag = (v: unknown): boolean => v === true;

function section(caps: acp.AgentCapabilities | undefined, key: string): Record<string, unknown> {
  const v = isObj(caps) ? (caps as Record<string, unknown>)[key] : undefined;
  return isObj(v) ? v : {};
}

/** Predicates over the agent's capabilities; omitted means unsupported. */
export class AgentCapabilityView {
  constructor(private readonly caps: acp.AgentCapabilities | undefined) {}

  get canLoadSession(): boolean {
    return flag(isObj(this.caps) ? this.caps.loadSession : undefined);
  }
  get canListSessions(): boolean {
    return marker(section(this.caps, 'sessionCapabilities').list);
  }
  get canResumeSession(): boolean {
    return marker(section(this.caps, 'sessionCapabilities').resume);
  }
  get canCloseSession(): boolean {
    return marker(section(this.caps, 'sessionCapabilities').close);
  }
  get canDeleteSession(): boolean {
    return marker(section(this.caps, 'sessionCapabilities').delete);
  }
  /** UNSTABLE in v1 but implemented by several agents. */
  get canForkSession(): boolean {
    return marker(section(this.caps, 'sessionCapabilities').fork);
  }
  get supportsAdditionalDirectories(): boolean {
    return marker(section(this.caps, 'sessionCapabilities').additionalDirectories);
  }
  get mcpHttp(): boolean {
    return flag(section(this.caps, 'mcpCapabilities').http);
  }
  get mcpSse(): boolean {
    return flag(section(this.caps, 'mcpCapabilities').sse);
  }
  get promptImage(): boolean {
    return flag(section(this.caps, 'promptCapabilities').image);
  }
  get promptAudio(): boolean {
    return flag(section(this.caps, 'promptCapabilities').audio);
  }
  get promptEmbeddedContext(): boolean {
    return flag(section(this.caps, 'promptCapabilities').embeddedContext);
  }
  get canLogout(): boolean {
    return marker(section(this.caps, 'auth').logout);
  }
}
