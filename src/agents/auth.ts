import * as l10n from '@vscode/l10n';
import { REMOTE_TOKEN } from './agentSocket';
import { AgentError, errorText } from '../acp/errors';
import { forLabel, forMessage } from '../shared/nativeText';
import type { AuthMethodInfo, EnvVarSpec } from '../acp/authMethods';
import type { AgentDefinition } from './agentDefinition';
import type { AgentManager } from './agentManager';
import type { AgentRuntime } from './agentRuntime';
import type { Notifier, TerminalRunner } from './ports';
import { signInNote } from './quirks';
import type { SignInStore } from './signInStore';

/** The questions sign-in asks; replaceable so tests in the real host can answer them. */
export interface AuthPrompter {
  pickMethod(agentName: string, methods: readonly AuthMethodInfo[], reason: string): Promise<AuthMethodInfo | undefined>;
  askValue(agentName: string, variable: EnvVarSpec, hasStored: boolean): Promise<string | undefined>;
  /** The key for a method that takes one (`_meta["api-key"]`); '' keeps the stored key. */
  askApiKey(agentName: string, method: AuthMethodInfo & { type: 'agent' }, hasStored: boolean): Promise<string | undefined>;
}

/** What an `api-key` method wants back in `authenticate`. */
const apiKeyAnswer = (key: string) => ({ 'api-key': { apiKey: key } });

/**
 * Signing in to agents: agent-type methods (`authenticate`), terminal-type
 * methods (the agent's own command plus the method's args/env in a VS Code
 * terminal, then restart), legacy `env_var` methods (values in SecretStorage,
 * passed in the agent's environment, restart, then `authenticate`) and legacy
 * `_meta["terminal-auth"]`; agent-type methods with `_meta["api-key"]` (the key asked
 * once, kept in SecretStorage, sent in `authenticate`'s `_meta`, and reused on the next
 * "authentication required" without asking). `logout` where advertised.
 */
export class AuthService {
  constructor(
    private readonly manager: AgentManager,
    private readonly stored: SignInStore,
    private readonly messages: Notifier,
    /** The questions asked; replaceable (tests answer them). */
    public prompter: AuthPrompter,
    private readonly runTerminal: TerminalRunner,
  ) {}

  /**
   * Runs `fn` against the running agent; when the agent answers -32000
   * (authentication required), offers sign-in and tries once more.
   */
  async withAuth<T>(def: AgentDefinition, cwd: string | undefined, fn: (rt: AgentRuntime) => Promise<T>): Promise<T> {
    const rt = await this.manager.ensureRunning(def, cwd);
    const signInsBefore = this.signIns.get(def.id) ?? 0;
    try {
      return await fn(rt);
    } catch (err) {
      if (!(err instanceof AgentError) || !err.isAuthRequired) throw err;
      // Signed in meanwhile (another call's question, answered while this one was on its way): try again, nothing asked.
      if ((this.signIns.get(def.id) ?? 0) > signInsBefore) {
        try {
          return await fn(await this.manager.ensureRunning(def, cwd));
        } catch (again) {
          if (!(again instanceof AgentError) || !again.isAuthRequired) throw again;
        }
      }
      if (await this.oneAtATime(def, 'stored key', () => this.signInWithStoredKey(def, cwd))) {
        try {
          return await fn(await this.manager.ensureRunning(def, cwd));
        } catch (again) {
          if (!(again instanceof AgentError) || !again.isAuthRequired) throw again;
          this.manager.agentLog(def).warn(`Still asked to sign in after signing in with a stored key: ${again.message}`);
        }
      }
      this.manager.setStatus(def.id, 'needs-sign-in');
      // Where the agent's own sign-ins are all online, how it runs without them (quirks.ts, SIGN_IN_NOTES).
      const note = signInNote(rt.initializeResult?.agentInfo);
      if (note) this.manager.agentLog(def).info(`Sign-in asked (${err.message}): ${note}`);
      const asked = l10n.t('{0} needs you to sign in ({1}).', forLabel(def.name, 100), forLabel(err.message, 300));
      const signedIn = await this.oneAtATime(def, 'question', () => this.signIn(def, cwd, note ? `${asked} ${note}` : asked));
      if (!signedIn) throw note ? new AgentError(err.method, err.code, `${err.message} ${note}`, err.data) : err;
      try {
        return await fn(await this.manager.ensureRunning(def, cwd));
      } catch (again) {
        if (!(again instanceof AgentError) || !again.isAuthRequired) throw again;
        // Signing in succeeded, yet the agent asks again: not offered in a loop; said as it is, Sign In left to the user.
        this.manager.setStatus(def.id, 'needs-sign-in');
        const method = this.lastMethod ?? '?';
        this.manager.agentLog(def).warn(`Signed in with "${method}", but ${again.method} still answered ${again.code} (${again.message}): not retried`);
        throw new AgentError(
          again.method,
          again.code,
          l10n.t('{0} still asks for a sign-in after signing in with "{1}" succeeded ({2}). It may need another sign-in method, or its own configuration: see its log.', forMessage(def.name, 100), forMessage(method, 100), forMessage(again.message, 300)),
          again.data,
        );
      }
    }
  }

  /** The name of the sign-in method that last succeeded (for the message when the agent asks again). */
  private lastMethod: string | undefined;

  /** Sign-ins that succeeded, per agent id (a call that failed before one ended tries again without asking). */
  private readonly signIns = new Map<string, number>();
  /** The sign-in running now per agent and step: calls that need one meanwhile share it (one question per agent at a time). */
  private readonly running = new Map<string, Promise<boolean>>();

  private oneAtATime(def: AgentDefinition, step: 'stored key' | 'question', attempt: () => Promise<boolean>): Promise<boolean> {
    const key = `${step}\0${def.id}`;
    const already = this.running.get(key);
    if (already) return already;
    const p = attempt()
      .then((ok) => {
        if (ok) this.signIns.set(def.id, (this.signIns.get(def.id) ?? 0) + 1);
        return ok;
      })
      .finally(() => this.running.delete(key));
    this.running.set(key, p);
    return p;
  }

  /** Offers the agent's sign-in methods and runs the one picked. Returns whether sign-in succeeded. */
  async signIn(def: AgentDefinition, cwd: string | undefined, reason = l10n.t('Sign in to {0}', def.name)): Promise<boolean> {
    if (def.url !== undefined) return await this.signInWithToken(def, cwd);
    const rt = await this.manager.ensureRunning(def, cwd);
    const methods = rt.initializeResult?.authMethods ?? [];
    if (methods.length === 0) {
      void this.messages.show('info', l10n.t('{0} offers no sign-in methods. Sign in as its documentation says, then restart it.', forMessage(def.name, 100)));
      return false;
    }
    const method = await this.prompter.pickMethod(def.name, methods, reason);
    if (!method) return false;
    try {
      const ok = await this.run(def, method, cwd);
      if (ok) {
        this.lastMethod = method.name;
        this.manager.setStatus(def.id, 'running');
        this.manager.agentLog(def).info(`Signed in with "${method.name}" (${method.id}).`);
      }
      return ok;
    } catch (err) {
      void this.messages.show('error', l10n.t('Signing in to {0} with "{1}" failed: {2}', forMessage(def.name, 100), forMessage(method.name, 100), forMessage(errorText(err))));
      return false;
    }
  }

  /**
   * An agent by URL: the bearer token its server asks for (HTTP 401/403 on the upgrade), typed once, kept in
   * secret storage and sent with every connection; a token it still refuses is said so, and not kept.
   */
  private async signInWithToken(def: AgentDefinition, cwd: string | undefined): Promise<boolean> {
    const current = await this.stored.storedEnv(def.id);
    const typed = await this.prompter.askValue(def.name, { name: REMOTE_TOKEN, label: l10n.t('Token for {0}', forLabel(def.url!, 200)), secret: true, optional: false }, current[REMOTE_TOKEN] !== undefined);
    const token = typed || current[REMOTE_TOKEN];
    if (!token) return false;
    this.stored.know(token);
    this.manager.setExtraEnv(def.id, { ...current, [REMOTE_TOKEN]: token });
    try {
      await this.manager.restart(def.id, cwd, { resetCrashes: true });
    } catch (err) {
      this.manager.setExtraEnv(def.id, current);
      void this.messages.show('error', l10n.t('Signing in to {0} failed: {1}', forMessage(def.name, 100), forMessage(errorText(err))));
      return false;
    }
    await this.stored.store(def.id, { [REMOTE_TOKEN]: token });
    this.lastMethod = l10n.t('a token');
    this.manager.agentLog(def).info('Signed in with a token (kept in secret storage).');
    return true;
  }

  /** Signs in with a key stored for one of the agent's `api-key` methods, without asking; whether one worked. */
  private async signInWithStoredKey(def: AgentDefinition, cwd: string | undefined): Promise<boolean> {
    const rt = await this.manager.ensureRunning(def, cwd);
    for (const method of rt.initializeResult?.authMethods ?? []) {
      if (method.type !== 'agent' || !method.apiKey) continue;
      const key = await this.stored.apiKey(def.id, method.id);
      if (key === undefined) continue;
      try {
        await rt.connection.authenticate(method.id, undefined, apiKeyAnswer(key));
        this.manager.agentLog(def).info(`Signed in with the stored key of "${method.name}" (${method.id}).`);
        return true;
      } catch (err) {
        this.manager.agentLog(def).warn(`The stored key of "${method.name}" (${method.id}) was not accepted: ${errorText(err)}`);
      }
    }
    return false;
  }

  /** An `api-key` method: the key asked (masked; empty keeps the stored one), sent in `_meta`, stored once accepted. */
  private async signInWithKey(def: AgentDefinition, method: AuthMethodInfo & { type: 'agent' }, cwd: string | undefined): Promise<boolean> {
    const stored = await this.stored.apiKey(def.id, method.id);
    const typed = await this.prompter.askApiKey(def.name, method, stored !== undefined);
    if (typed === undefined) return false;
    const key = typed.trim() || stored;
    if (!key) return false;
    this.stored.know(key);
    const rt = await this.manager.ensureRunning(def, cwd);
    await rt.connection.authenticate(method.id, undefined, apiKeyAnswer(key));
    await this.stored.storeApiKey(def.id, method.id, key);
    return true;
  }

  private async run(def: AgentDefinition, method: AuthMethodInfo, cwd: string | undefined): Promise<boolean> {
    switch (method.type) {
      case 'agent': {
        if (method.apiKey) return await this.signInWithKey(def, method, cwd);
        if (method.terminalAuth) {
          const { command, args, env, label } = method.terminalAuth;
          const ok = await this.runInTerminal(def, label ?? method.name, command, args, env);
          if (ok) await this.manager.restart(def.id, cwd);
          return ok;
        }
        const rt = await this.manager.ensureRunning(def, cwd);
        await rt.connection.authenticate(method.id);
        return true;
      }
      case 'terminal': {
        const spec = await this.manager.launchSpec(def, cwd);
        const ok = await this.runInTerminal(def, method.name, spec.command, [...spec.args, ...method.args], { ...spec.env, ...method.env });
        if (ok) await this.manager.restart(def.id, cwd);
        return ok;
      }
      case 'env_var': {
        const current = await this.stored.storedEnv(def.id);
        const values: Record<string, string> = {};
        for (const v of method.vars) {
          const typed = await this.prompter.askValue(def.name, v, current[v.name] !== undefined);
          if (typed === undefined) return false;
          if (typed !== '') values[v.name] = typed;
          else if (current[v.name] !== undefined) values[v.name] = current[v.name]!;
          else if (!v.optional) return false;
        }
        await this.stored.store(def.id, values);
        this.manager.setExtraEnv(def.id, await this.stored.storedEnv(def.id));
        const rt = await this.manager.restart(def.id, cwd);
        await rt.connection.authenticate(method.id);
        return true;
      }
      case 'unknown':
        this.manager.agentLog(def).warn(`Sign-in: "${forLabel(method.name, 100)}" (${forLabel(method.id, 100)}) is of type "${forLabel(method.rawType, 100)}", which this extension cannot run`);
        // Not awaited: a notification stays open until dismissed, and the panel must say "sign-in needed" now.
        void this.messages.show(
          'warning',
          l10n.t("{0} offers \"{1}\", a sign-in method of type \"{2}\" that this extension cannot run. Sign in outside VS Code as the agent's documentation says, then restart the agent.", forMessage(def.name, 100), forMessage(method.name, 100), forMessage(method.rawType, 100)),
        );
        return false;
    }
  }

  /**
   * Runs a sign-in program in a VS Code terminal and waits for it to exit; exit code 0 = signed in.
   * It runs in the extension's empty folder, never the workspace: a repository's `.npmrc`
   * (`script-shell`, `node-options`…) or `node_modules/.bin` must not choose what `npx` runs.
   */
  private async runInTerminal(def: AgentDefinition, title: string, command: string, args: string[], env: Record<string, string | undefined>): Promise<boolean> {
    this.manager.agentLog(def).info(`Sign-in: running ${[command, ...args].join(' ')} in a terminal`);
    const code = await this.runTerminal({
      name: `${forLabel(def.name, 60)}: ${forLabel(title, 100)}`,
      command,
      args,
      env: Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string')),
      cwd: this.manager.neutralFolder(),
    });
    if (code !== 0) {
      void this.messages.show('warning', code === undefined ? l10n.t('Signing in to {0} did not complete (the sign-in program exited with no exit code).', forMessage(def.name, 100)) : l10n.t('Signing in to {0} did not complete (the sign-in program exited with code {1}).', forMessage(def.name, 100), code));
      return false;
    }
    return true;
  }

  /** `logout` where advertised; forgets stored environment values either way. The outcome is told, not waited on. */
  async signOut(def: AgentDefinition, cwd: string | undefined): Promise<void> {
    const forgotten = await this.stored.forget(def.id);
    this.manager.setExtraEnv(def.id, {});
    if (def.url !== undefined) {
      // Its token is gone: the connection made with it ends, and the next start asks for one.
      await this.manager.stop(def.id);
      this.manager.setStatus(def.id, 'needs-sign-in');
      void this.messages.show('info', forgotten > 0 ? l10n.t('Forgot the token of {0} and disconnected it.', forMessage(def.name, 100)) : l10n.t('{0} has no stored token.', forMessage(def.name, 100)));
      return;
    }
    const rt = this.manager.runtime(def.id);
    if (rt?.capabilities.canLogout()) {
      await rt.connection.logout();
      this.manager.setStatus(def.id, 'needs-sign-in');
      void this.messages.show('info', l10n.t('Signed out of {0}.', forMessage(def.name, 100)));
    } else if (forgotten > 0) {
      await this.manager.restart(def.id, cwd);
      void this.messages.show('info', l10n.t('Forgot the stored sign-in values of {0} and restarted it.', forMessage(def.name, 100)));
    } else {
      void this.messages.show('info', l10n.t('{0} does not support signing out from the editor.', forMessage(def.name, 100)));
    }
  }
}
