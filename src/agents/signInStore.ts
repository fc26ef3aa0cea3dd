/**
 * Values typed for sign-in: those of `env_var` methods (loaded into the agent's
 * environment before each start) and the keys of `api-key` methods (sent in
 * `authenticate`'s `_meta`). Kept in the editor's secret storage (their names in
 * its state) and known to the log redaction. No `vscode` import.
 */
import type { KeyValueStore, SecretStore } from './ports';

const secretKey = (agentId: string, name: string) => `acpAgents.env/${agentId}/${name}`;
const namesKey = (agentId: string) => `acpAgents.envNames/${agentId}`;
const apiKeyKey = (agentId: string, methodId: string) => `acpAgents.apiKey/${agentId}/${methodId}`;
const apiKeyMethodsKey = (agentId: string) => `acpAgents.apiKeyMethods/${agentId}`;

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

  /** Makes a value known to the log redaction before it is sent anywhere. */
  know(value: string): void {
    this.known.add(value);
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

  /** The key stored for an `api-key` sign-in method of an agent, if any. */
  async apiKey(agentId: string, methodId: string): Promise<string | undefined> {
    if (!this.state.get<string[]>(apiKeyMethodsKey(agentId), []).includes(methodId)) return undefined;
    const v = await this.secrets.get(apiKeyKey(agentId, methodId));
    if (v !== undefined) this.known.add(v);
    return v;
  }

  async storeApiKey(agentId: string, methodId: string, key: string): Promise<void> {
    this.known.add(key);
    await this.secrets.store(apiKeyKey(agentId, methodId), key);
    const methods = new Set(this.state.get<string[]>(apiKeyMethodsKey(agentId), []));
    methods.add(methodId);
    await this.state.update(apiKeyMethodsKey(agentId), [...methods]);
  }

  /** Forgets every stored value and key of an agent; resolves with how many there were. */
  async forget(agentId: string): Promise<number> {
    const names = this.state.get<string[]>(namesKey(agentId), []);
    for (const n of names) await this.secrets.delete(secretKey(agentId, n));
    await this.state.update(namesKey(agentId), []);
    const methods = this.state.get<string[]>(apiKeyMethodsKey(agentId), []);
    for (const m of methods) await this.secrets.delete(apiKeyKey(agentId, m));
    await this.state.update(apiKeyMethodsKey(agentId), []);
    return names.length + methods.length;
  }
}
