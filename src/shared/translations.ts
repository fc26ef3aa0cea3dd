/**
 * The extension's translations (VS Code's l10n bundle for the display language), kept at activation
 * for code bundled apart from extension.js, which has its own copy of @vscode/l10n to configure
 * (agents/registry/archive.ts). Pure: no `vscode`, no Node.
 */
let contents: Record<string, string> | undefined;

export function keepTranslations(bundle: Record<string, string> | undefined): void {
  contents = bundle;
}

export function translations(): Record<string, string> | undefined {
  return contents;
}
