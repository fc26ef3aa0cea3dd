import * as vscode from 'vscode';
import type { AuthMethodInfo } from '../acp/decode';
import type { AuthPrompter } from '../agents/auth';
import type { TerminalRunner } from '../agents/ports';

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

/** Sign-in questions as quick picks and input boxes. */
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
