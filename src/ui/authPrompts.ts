import * as vscode from 'vscode';
import type { AuthMethodInfo } from '../acp/authMethods';
import type { AuthPrompter } from '../agents/auth';
import type { TerminalRunner } from '../agents/ports';
import { forLabel } from '../shared/nativeText';

function describeMethod(m: AuthMethodInfo): string {
  switch (m.type) {
    case 'agent':
      return m.terminalAuth
        ? vscode.l10n.t('runs a sign-in command in a terminal')
        : m.apiKey
          ? vscode.l10n.t('asks for a key (kept in VS Code’s secret storage)')
          : vscode.l10n.t('the agent signs you in');
    case 'terminal':
      return vscode.l10n.t('runs the agent’s sign-in in a terminal');
    case 'env_var':
      return vscode.l10n.t('asks for {0} (kept in VS Code’s secret storage)', forLabel(m.vars.map((v) => v.name).join(', '), 300));
    case 'unknown':
      return vscode.l10n.t('type "{0}": this extension cannot run it', forLabel(m.rawType, 100));
  }
}

/** Sign-in questions as quick picks and input boxes. */
export const quickPickPrompter: AuthPrompter = {
  async pickMethod(agentName, methods, reason) {
    const picked = await vscode.window.showQuickPick(
      methods.map((m) => ({ label: forLabel(m.name), description: describeMethod(m), detail: m.description === undefined ? undefined : forLabel(m.description, 500), method: m })),
      { title: vscode.l10n.t('Sign in to {0}', forLabel(agentName)), placeHolder: reason, ignoreFocusOut: true },
    );
    return picked?.method;
  },
  async askValue(agentName, variable, hasStored) {
    return await vscode.window.showInputBox({
      title: `${forLabel(agentName)}: ${forLabel(variable.label ?? variable.name)}`,
      prompt: variable.optional
        ? hasStored
          ? vscode.l10n.t('Value of {0} (optional). Leave empty to keep the stored value.', forLabel(variable.name))
          : vscode.l10n.t('Value of {0} (optional)', forLabel(variable.name))
        : hasStored
          ? vscode.l10n.t('Value of {0}. Leave empty to keep the stored value.', forLabel(variable.name))
          : vscode.l10n.t('Value of {0}', forLabel(variable.name)),
      password: variable.secret,
      ignoreFocusOut: true,
    });
  },
  async askApiKey(agentName, method, hasStored) {
    const whose = method.apiKey?.provider;
    return await vscode.window.showInputBox({
      title: `${forLabel(agentName)}: ${forLabel(method.name)}`,
      prompt: hasStored
        ? vscode.l10n.t('The key {0} signs in with. It is kept in VS Code’s secret storage. Leave empty to keep the stored key.', forLabel(agentName))
        : whose
          ? vscode.l10n.t('The {0} key {1} signs in with. It is kept in VS Code’s secret storage.', forLabel(whose, 60), forLabel(agentName))
          : vscode.l10n.t('The key {0} signs in with. It is kept in VS Code’s secret storage.', forLabel(agentName)),
      password: true,
      ignoreFocusOut: true,
    });
  },
};

/** A sign-in program in a VS Code terminal; resolves with its exit code when the terminal closes. */
export const runInTerminal: TerminalRunner = async ({ name, command, args, env, cwd }) => {
  const terminal = vscode.window.createTerminal({ name, shellPath: command, shellArgs: args, env, cwd, isTransient: true });
  terminal.show();
  return await new Promise<number | undefined>((resolve) => {
    const sub = vscode.window.onDidCloseTerminal((t) => {
      if (t === terminal) {
        sub.dispose();
        resolve(t.exitStatus?.code);
      }
    });
  });
};
