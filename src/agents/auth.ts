import * as vscode from 'vscode';
import { AgentError, errorText } from '../acp/connection';
import type { AuthMethodInfo, EnvVarSpec } from '../acp/decode';
import type { UserMessages } from '../userMessages';
import type { AgentDefinition } from './agentDefinition';
import type { AgentManager } from './agentManager';
import type { AgentRuntime } from './agentRuntime';

/** The questions sign-in asks; replaceable so tests in the real host can answer them. */
export interface AuthPrompter {
  pickMethod(agentName: string, methods: readonly AuthMethodInfo[], reason: string): Promise<AuthMethodInfo | undefined>;
  askValue(agentName: string, variable: EnvVarSpec, hasStored: boolean): Promise<string | undefined>;
}

function describeMethod(m: AuthMethodInfo): string {
  switch (m.type) {
    case 'agent':
      return m.terminalAuth ? 'runs a sign-in command in a terminal' : 'the agent signs you in';
    case 'terminal':
      return 'runs the agent’s sign-in in a terminal';
    case 'env_var':
      return `asks for ${m.vars.map((v) => v.name).join(', ')} (kept in VS Code’s secret storage)`;
    case 'unknown':
      return `type "${m.rawType}": this extension cannot run it`;
  }
}

export const quickPickPrompter: AuthPrompter = {
  async pickMethod(agentName, methods, reason) {
    const picked = await vscode.window.showQuickPick(
      methods.map((m) => ({ label: m.name, description: describeMethod(m), detail: m.description, method: m })),
      { title: `Sign in to ${agentName}`, placeHolder: reason, ignoreFocusOut: true },
    );
    return picked?.method;
  },
  async askValue(agentName, variable, hasStored) {
    return await vscode.window.showInputBox({
      title: `${agentName}: ${variable.label ?? variable.name}`,
      prompt: `Value of ${variable.name}${variable.optional ? ' (optional)' : ''}${hasStored ? '. Leave empty to keep the stored value.' : ''}`,
      password: variable.secret,
      ignoreFocusOut: true,
    });
  },
};

const secretKey = (agentId: string, name: string) => `acpAgents.env/${agentId}/${name}`;
const namesKey = (agentId: string) => `acpAgents.envNames/${agentId}`;

/**
 * Signing in to agents: agent-type methods (`authenticate`), terminal-type
 * methods (the agent's own command plus the method's args/env in a VS Code
 * terminal, then restart), legacy `env_var` methods (values in SecretStorage,
 * passed in the agent's environment, restart, then `authenticate`) and legacy
 * `_meta["terminal-auth"]`. `logout` where advertised.
 */
export class AuthService {
  prompter: AuthPrompter = quickPickPrompter;
  private readonly knownSecrets = new Set<string>();

  constructor(
    private readonly manager: AgentManager,
    private readonly secrets: vscode.SecretStorage,
    private readonly state: vscode.Memento,
    private readonly messages: UserMessages,
  ) {}

  /** Secret values loaded or typed so far (to redact from logs). */
  secretValues(): string[] {
    return [...this.knownSecrets];
  }

  /** The stored environment of an agent (from env_var sign-in). */
  async storedEnv(agentId: string): Promise<Record<string, string>> {
    const names = this.state.get<string[]>(namesKey(agentId), []);
    const env: Record<string, string> = {};
    for (const n of names) {
      const v = await this.secrets.get(secretKey(agentId, n));
      if (v !== undefined) {
        env[n] = v;
        this.knownSecrets.add(v);
      }
    }
    return env;
  }

  /**
   * Runs `fn` against the running agent; when the agent answers -32000
   * (authentication required), offers sign-in and tries once more.
   */
  async withAuth<T>(def: AgentDefinition, cwd: string | undefined, fn: (rt: AgentRuntime) => Promise<T>): Promise<T> {
    const rt = await this.manager.ensureRunning(def, cwd);
    try {
      return await fn(rt);
    } catch (err) {
      if (!(err instanceof AgentError) || !err.isAuthRequired) throw err;
      this.manager.setStatus(def.id, 'needs-sign-in');
      const signedIn = await this.signIn(def, cwd, `${def.name} needs you to sign in (${err.message}).`);
      if (!signedIn) throw err;
      return await fn(await this.manager.ensureRunning(def, cwd));
    }
  }

  /** Offers the agent's sign-in methods and runs the one picked. Returns whether sign-in succeeded. */
  async signIn(def: AgentDefinition, cwd: string | undefined, reason = `Sign in to ${def.name}`): Promise<boolean> {
    const rt = await this.manager.ensureRunning(def, cwd);
    const methods = rt.initializeResult?.authMethods ?? [];
    if (methods.length === 0) {
      await this.messages.show('info', `${def.name} offers no sign-in methods. Sign in as its documentation says, then restart it.`);
      return false;
    }
    const method = await this.prompter.pickMethod(def.name, methods, reason);
    if (!method) return false;
    try {
      const ok = await this.run(def, method, cwd);
      if (ok) {
        this.manager.setStatus(def.id, 'running');
        this.manager.agentLog(def).info(`Signed in with "${method.name}" (${method.id}).`);
      }
      return ok;
    } catch (err) {
      await this.messages.show('error', `Signing in to ${def.name} with "${method.name}" failed: ${errorText(err)}`);
      return false;
    }
  }

  private async run(def: AgentDefinition, method: AuthMethodInfo, cwd: string | undefined): Promise<boolean> {
    switch (method.type) {
      case 'agent': {
        if (method.terminalAuth) {
          const { command, args, env, label } = method.terminalAuth;
          const ok = await this.runInTerminal(def, label ?? method.name, command, args, env, cwd);
          if (ok) await this.manager.restart(def.id, cwd);
          return ok;
        }
        const rt = await this.manager.ensureRunning(def, cwd);
        await rt.connection.authenticate(method.id);
        return true;
      }
      case 'terminal': {
        const spec = await this.manager.launchSpec(def, cwd);
        const ok = await this.runInTerminal(def, method.name, spec.command, [...spec.args, ...method.args], { ...spec.env, ...method.env }, cwd);
        if (ok) await this.manager.restart(def.id, cwd);
        return ok;
      }
      case 'env_var': {
        const current = await this.storedEnv(def.id);
        const values: Record<string, string> = {};
        for (const v of method.vars) {
          const typed = await this.prompter.askValue(def.name, v, current[v.name] !== undefined);
          if (typed === undefined) return false;
          if (typed !== '') values[v.name] = typed;
          else if (current[v.name] !== undefined) values[v.name] = current[v.name]!;
          else if (!v.optional) return false;
        }
        await this.store(def.id, values);
        this.manager.setExtraEnv(def.id, await this.storedEnv(def.id));
        const rt = await this.manager.restart(def.id, cwd);
        await rt.connection.authenticate(method.id);
        return true;
      }
      case 'unknown':
        await this.messages.show(
          'warning',
          `${def.name} offers "${method.name}", a sign-in method of type "${method.rawType}" that this extension cannot run. Sign in outside VS Code as the agent's documentation says, then restart the agent.`,
        );
        return false;
    }
  }

  private async store(agentId: string, values: Record<string, string>): Promise<void> {
    const names = new Set(this.state.get<string[]>(namesKey(agentId), []));
    for (const [k, v] of Object.entries(values)) {
      await this.secrets.store(secretKey(agentId, k), v);
      this.knownSecrets.add(v);
      names.add(k);
    }
    await this.state.update(namesKey(agentId), [...names]);
  }

  /** Runs a sign-in program in a VS Code terminal and waits for it to exit; exit code 0 = signed in. */
  private async runInTerminal(def: AgentDefinition, title: string, command: string, args: string[], env: Record<string, string | undefined>, cwd: string | undefined): Promise<boolean> {
    const terminal = vscode.window.createTerminal({
      name: `${def.name}: ${title}`,
      shellPath: command,
      shellArgs: args,
      env: Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string')),
      cwd,
      isTransient: true,
    });
    terminal.show();
    this.manager.agentLog(def).info(`Sign-in: running ${[command, ...args].join(' ')} in a terminal`);
    const code = await new Promise<number | undefined>((resolve) => {
      const sub = vscode.window.onDidCloseTerminal((t) => {
        if (t === terminal) {
          sub.dispose();
          resolve(t.exitStatus?.code);
        }
      });
    });
    if (code !== 0) {
      await this.messages.show('warning', `Signing in to ${def.name} did not complete (the sign-in program exited with ${code === undefined ? 'no exit code' : `code ${code}`}).`);
      return false;
    }
    return true;
  }

  /** `logout` where advertised; forgets stored environment values either way. */
  async signOut(def: AgentDefinition, cwd: string | undefined): Promise<void> {
    const names = this.state.get<string[]>(namesKey(def.id), []);
    for (const n of names) await this.secrets.delete(secretKey(def.id, n));
    await this.state.update(namesKey(def.id), []);
    this.manager.setExtraEnv(def.id, {});
    const rt = this.manager.runtime(def.id);
    if (rt?.capabilities.canLogout) {
      await rt.connection.logout();
      this.manager.setStatus(def.id, 'needs-sign-in');
      await this.messages.show('info', `Signed out of ${def.name}.`);
    } else if (names.length > 0) {
      await this.manager.restart(def.id, cwd);
      await this.messages.show('info', `Forgot the stored sign-in values of ${def.name} and restarted it.`);
    } else {
      await this.messages.show('info', `${def.name} does not support signing out from the editor.`);
    }
  }
}
