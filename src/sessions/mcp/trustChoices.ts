/**
 * What "ACP: Manage Trusted Workspace MCP Servers…" offers and what the user's picks mean:
 * the workspace's MCP servers (each checked when trusted) and, when the user let gemini-cli
 * load this workspace's own `.gemini/` settings, one entry for that answer (unchecking it
 * forgets it, and gemini-cli's settings are asked about again). No VS Code here: unit-tested.
 */

/** The key of the Gemini entry: no definition hash (64 hex digits) can equal it. */
export const GEMINI_SETTINGS_KEY = 'gemini-settings';

export interface TrustChoice {
  /** A server's definition hash, or GEMINI_SETTINGS_KEY. */
  readonly key: string;
  readonly picked: boolean;
}

/**
 * The choices: the defined servers (checked when trusted), then the Gemini answer when there is one.
 * @param definedHashes the servers the workspace defines now
 * @param trusted the definition hashes trusted now
 * @param geminiTrusted how many Gemini settings answers this workspace keeps
 */
export function trustChoices(definedHashes: readonly string[], trusted: ReadonlySet<string>, geminiTrusted: number): TrustChoice[] {
  const choices = definedHashes.map((key) => ({ key, picked: trusted.has(key) }));
  if (geminiTrusted > 0) choices.push({ key: GEMINI_SETTINGS_KEY, picked: true });
  return choices;
}

export interface TrustOutcome {
  /** The hashes to keep trusted, or undefined when no server was on offer (earlier trust is left alone). */
  readonly mcpTrusted: string[] | undefined;
  /** True when the user unchecked the Gemini entry. */
  readonly forgetGemini: boolean;
}

/**
 * What the picks mean. Only what was on offer changes: an answer not in `offered` is kept.
 * @param offered the choices shown
 * @param pickedKeys the keys of the choices checked when the user accepted
 */
export function trustOutcome(offered: readonly TrustChoice[], pickedKeys: readonly string[]): TrustOutcome {
  const picked = new Set(pickedKeys);
  const servers = offered.filter((c) => c.key !== GEMINI_SETTINGS_KEY);
  return {
    mcpTrusted: servers.length > 0 ? servers.filter((c) => picked.has(c.key)).map((c) => c.key) : undefined,
    forgetGemini: offered.some((c) => c.key === GEMINI_SETTINGS_KEY) && !picked.has(GEMINI_SETTINGS_KEY),
  };
}
