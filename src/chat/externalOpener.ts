/**
 * The one way the chat panels open a page in the browser (links in agent
 * output, a URL elicitation's Open). A seam so the integration tests can see
 * what would have been opened, and what never was.
 */
import * as vscode from 'vscode';

export const externalOpener: { open(uri: vscode.Uri): Thenable<boolean> } = {
  open: (uri) => vscode.env.openExternal(uri),
};
