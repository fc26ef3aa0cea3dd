/**
 * Values typed for `env_var` sign-in methods: kept in the editor's secret
 * storage (their names in its state), loaded into the agent's environment
 * before each start, and known to the log redaction. No `vscode` import.
 */
import type { KeyValueStore, SecretStore } from './ports';

const secretKey = (agentId: string, name: string) => `acpAgents.env/${agentId}/${name}`;
const namesKey = (agentId: string) => `acpAgents.envNames/${agentId}`;

export class SignInStore {
  private readonly known = new Set<string>();

  constructor(
    private readonly secrets: SecretStore,
    private readonly state: KeyValueStore,
  ) {}

  /** Secret values loaded or typed so far (to redact from logs). */
  secretValues(): string[] {
    return [...this.known];
  }

  /** The stored environment of an agent. */
  async storedEnv(agentId: string): Promise<Record<string, string>> {
    const env: Record<string, string> = {};
    for (const n of this.state.get<string[]>(namesKey(agentId), [])) {
      const v = await this.secrets.get(secretKey(agentId, n));
      if (v !== undefined) {
        env[n] = v;
        this.known.add(v);
      }
    }
    return env;
  }

  async store(agentId: string, values: Record<string, string>): Promise<void> {
    const names = new Set(this.state.get<string[]>(namesKey(agentId), []));
    for (const [k, v] of Object.entries(values)) {
      await this.secrets.store(secretKey(agentId, k), v);
      this.known.add(v);
      names.add(k);
    }
    await this.state.update(namesKey(agentId), [...names]);
  }

  /** Forgets every stored value of an agent; resolves with how many there were. */
  async forget(agentId: string): Promise<number> {
    const names = this.state.get<string[]>(namesKey(agentId), []);
    for (const n of names) await this.secrets.delete(secretKey(agentId, n));
    await this.state.update(namesKey(agentId), []);
    return names.length;
  }
}
