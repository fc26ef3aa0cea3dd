import * as l10n from '@vscode/l10n';

/**
 * Loads the translations the extension passed in (`vscode.l10n.bundle`, in a
 * JSON script element the CSP does not run). Imported first by main.ts, so it
 * is configured before any module calls `l10n.t`; without it (English), the
 * strings in the code are used as they are.
 */
const bundle = document.getElementById('l10n-bundle')?.textContent;
if (bundle) {
  try {
    l10n.config({ contents: JSON.parse(bundle) as Record<string, string> });
  } catch {
    // a broken bundle: English
  }
}
