// `npm run break-features [-- --only NAME[,NAME…]] [--tier unit|integration] [--list] [--baseline] [--batch] [--here [--no-build]] [--jobs N]`
//
// Proves that the tests written for a feature go red when the feature breaks: each
// mutant below breaks one feature with a one-line edit, and the test(s) named by its
// `grep` must then fail. `npm test` runs `--list` (no mutant stale), the unit mutants
// (`--tier unit --here`, about a minute), and checks the integration greps against the
// titles its integration tier passed; the integration mutants (about a minute each) stay
// out of it: run them after changing a feature or its tests (CONTRIBUTING.md).
//
// For each mutant, in a throwaway git worktree of HEAD (under the system temp folder,
// node_modules linked, reused across mutants and reset with `git checkout -- .`):
//   - `find` must occur exactly once in `file`, else the mutant is "stale" (the code
//     moved on: fix the mutant) — the table cannot rot silently;
//   - the edit is applied and only the named tests run:
//       unit:        one `node esbuild.mjs --tests` for all of them; then per mutant, the
//                    mutated file alone transpiled in memory and loaded by a mocha child in
//                    place of the built one (scripts/unit-mutants.mjs), `--jobs` at a time;
//                    `--here`: in this checkout (its working tree, not HEAD) instead;
//       integration: `flock /tmp/acp-itest.lock node test/harness/test-all.mjs --tier integration --grep …`
//                    (the lock is shared with every other real-host run on the machine);
//   - "caught" means a non-zero exit with at least one failing test. A build, typecheck
//     or lint failure is "did not compile" (the mutant must break behaviour, not the
//     build); a run that ends no test is an error.
// `--baseline` runs each grep unmutated instead: it must be green and match at least
// one test (the integration greps in one real-host run, each checked against the
// titles that passed).
// `--batch` runs the integration mutants grouped, several to a real-host run (see runBatched).
// Exits non-zero when a mutant survived, went stale, did not compile, or errored.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runUnitMutants } from './unit-mutants.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LOCK = '/tmp/acp-itest.lock';
const UNIT_TIMEOUT_MS = 5 * 60_000;
const INTEGRATION_TIMEOUT_MS = 30 * 60_000;

/**
 * @typedef {{ name: string, breaks: string, file: string, find: string, replace: string, tier: 'unit' | 'integration', grep: string }} Mutant
 * @type {Mutant[]}
 */
const MUTANTS = [
  // ---- this session's defects (stores between windows, what approval reads as paths, limits)
  {
    name: 'index-write-without-lock',
    breaks: "the session index's read-merge-replace runs without the lock between windows",
    file: 'src/sessions/store/sessionIndex.ts',
    find: '.then(() => withStoreLock(this.file, () => this.mergeAndReplace(), this.options.log))',
    replace: '.then(() => this.mergeAndReplace())',
    tier: 'unit',
    grep: 'the session index: .* processes',
  },
  {
    name: 'search-globs-not-paths',
    breaks: "a search tool's pattern or glob (e.g. ~/.ssh/*) is not read as a path when deciding approval",
    file: 'src/sessions/policy/toolPaths.ts',
    find: "['pattern', 'patterns', 'glob', 'globs'].some((s) => k.endsWith(s))",
    replace: "['never-a-key'].some((s) => k === s)",
    tier: 'unit',
    grep: "reads search tools' patterns and globs",
  },
  {
    name: 'protected-paths-replace-defaults',
    breaks: "a user's own files.protectedPaths replaces the defaults instead of adding to them",
    file: 'src/node/protectedPaths.ts',
    find: "for (const g of [...DEFAULT_PROTECTED_PATHS, ...entries.filter((e) => !e.trim().startsWith('!'))]) {",
    replace: "for (const g of entries.length ? entries.filter((e) => !e.trim().startsWith('!')) : DEFAULT_PROTECTED_PATHS) {",
    tier: 'unit',
    grep: 'add to the defaults',
  },
  {
    name: 'stray-elicitation-asked-in-a-dialog',
    breaks: 'an elicitation about a session not open here (a subagent never announced) is asked in a dialog, not answered cancel',
    file: 'src/sessions/parts/elicitations.ts',
    find: '(sessionId === undefined || sessionId === null) && call.elicitation',
    replace: 'call.elicitation',
    tier: 'unit',
    grep: 'an elicitation about an open session goes to it',
  },
  {
    name: 'permission-for-closed-session-asked',
    breaks: 'a permission request about a session not open here is not answered cancelled',
    file: 'src/sessions/parts/permissions.ts',
    find: 'unrouted: () => CANCELLED,',
    replace: "unrouted: () => ({ outcome: { outcome: 'selected', optionId: 'allow' } }),",
    tier: 'unit',
    grep: 'a permission request about a session not open here',
  },
  {
    name: 'elicitations-unbounded',
    breaks: 'an agent can make any number of questions wait in a session',
    file: 'src/sessions/parts/elicitations.ts',
    find: 'if (this.pending.size >= MAX_WAITING_ELICITATIONS) {',
    replace: 'if (this.pending.size >= MAX_WAITING_ELICITATIONS * 1000) {',
    tier: 'unit',
    grep: 'at most 16 questions of a session wait',
  },
  {
    name: 'send-attaches-any-file',
    breaks: "a webview's send may attach a file outside the folders that the host never gave it",
    file: 'src/chat/offeredFiles.ts',
    find: 'if (!offered && real === undefined) refused.push(a.name);',
    replace: 'if (!offered && real !== undefined) refused.push(a.name);',
    tier: 'unit',
    grep: 'OfferedFiles',
  },
  // ---- security round 4 (#34)
  {
    name: 'glob-checked-as-text',
    breaks: "a search glob that spells a protected name with wildcards (.e*, .en[v], .gi?/config) is approved automatically",
    file: 'src/node/protectedGlobs.ts',
    find: "  if (glob.length > MAX_GLOB_CHARS) return 'a glob too long to check';",
    replace: "  if (glob.length > MAX_GLOB_CHARS || glob.length > 0) return undefined;",
    tier: 'unit',
    grep: "the issue's five spellings of .env and .git/config",
  },
  {
    name: 'registry-env-sets-base-url',
    breaks: "a registry entry (or a workspace's MCP server) may point an agent's API at another host (*_BASE_URL)",
    file: 'src/node/envPolicy.ts',
    find: "'.*_BASE_URL', ",
    replace: '',
    tier: 'unit',
    grep: 'strips from env what changes where traffic goes',
  },
  {
    name: 'home-folder-granted',
    breaks: 'Add Folder to Agent Session gives a session the whole home folder',
    file: 'src/node/folderGrant.ts',
    find: "if (mine.some((m) => homes.some((h) => same(m, h)))) return { kind: 'home' };",
    replace: '',
    tier: 'unit',
    grep: 'refuses the filesystem root, the home folder',
  },
  {
    name: 'editor-context-connections-shared',
    breaks: "one session may take every connection of the editor's MCP server",
    file: 'src/node/localSocketServer.ts',
    find: 'if (session.live.size >= this.opts.perSession) {',
    replace: 'if (session.live.size >= this.opts.perSession * 100) {',
    tier: 'unit',
    grep: 'one session holds at most its share of the connections',
  },
  // the rest of round 4 (#34): one mutant per item of its "What to build" that had none
  {
    name: 'gemini-trust-over-declined-settings',
    breaks: 'gemini-cli is told to trust the workspace although the user declined the Gemini settings the folders hold',
    file: 'src/agents/quirks.ts',
    find: "if (trust.repository === 'declined') {",
    replace: "if (trust.repository === ('never' as string)) {",
    tier: 'unit',
    grep: 'does not pass the trust on when the user did not accept the Gemini settings',
  },
  {
    name: 'gemini-env-files-not-looked-for',
    breaks: "a folder's .gemini/.env or .env (variables for every program gemini-cli starts) is not counted as what it would load",
    file: 'src/agents/geminiWorkspace.ts',
    find: "for (const env of ['.gemini/.env', '.env']) {",
    replace: 'for (const env of [] as string[]) {',
    tier: 'unit',
    grep: 'finds settings, commands and .env files',
  },
  {
    name: 'gemini-new-folder-not-rechecked',
    breaks: 'a running gemini-cli told to trust the workspace serves a session in a folder whose Gemini settings nobody checked',
    file: 'src/agents/agentManager.ts',
    find: 'if (cwd !== undefined && e.trustChecked) return this.recheckTrust(e, e.runtime, cwd);',
    replace: '',
    tier: 'unit',
    grep: 'gemini-cli’s workspace trust follows every session folder',
  },
  {
    name: 'gemini-changed-settings-not-asked',
    breaks: "a running gemini-cli told to trust the workspace serves a folder whose Gemini settings changed since the user's yes",
    file: 'src/agents/agentManager.ts',
    find: 'if (cwd !== undefined && e.trustChecked) return this.recheckTrust(e, e.runtime, cwd);',
    replace: 'if (cwd !== undefined && e.trustChecked && !e.trustChecked.has(cwd)) return this.recheckTrust(e, e.runtime, cwd);',
    tier: 'unit',
    grep: 'settings changed after the user accepted them',
  },
  {
    name: 'gemini-folder-checked-only-when-running',
    breaks: 'a session that asks while gemini-cli is still starting for another folder gets the trusting process unchecked',
    file: 'src/agents/agentManager.ts',
    find: 'return cwd === undefined ? e.starting : e.starting.then(() => this.ensureRunning(def, cwd));',
    replace: 'return e.starting;',
    tier: 'unit',
    grep: 'still starting for another folder is checked too',
  },
  {
    name: 'mcp-npx-without-prefix',
    breaks: "an npx MCP server reads the workspace's .npmrc (script-shell, registry) to choose what runs",
    file: 'src/sessions/mcp/mcpServers.ts',
    find: "args: packageRunnerKind(resolved, args) === 'npm' ? withNpmPrefix(resolved, args, ctx.runnerPrefix) : args,",
    replace: 'args,',
    tier: 'unit',
    grep: 'npx and npm exec servers take npm’s config|a workspace .npmrc does not decide what an npx server runs',
  },
  {
    name: 'mcp-bunx-in-workspace',
    breaks: 'a bunx / yarn dlx / pnpm dlx MCP server is started in the workspace, whose bunfig.toml / .yarnrc.yml / .npmrc chooses what runs',
    file: 'src/sessions/mcp/mcpServers.ts',
    find: 'if (config) return l10n.t(',
    replace: 'if (config && !config) return l10n.t(',
    tier: 'unit',
    grep: 'npx and npm exec servers take npm’s config',
  },
  {
    name: 'mcp-trust-dialog-hides-env',
    breaks: "the MCP trust question shows a workspace server's command line but not the env it sets",
    file: 'src/sessions/mcp/mcpTrust.ts',
    find: 'if (!env.length) return head;',
    replace: 'if (env.length >= 0) return head;',
    tier: 'unit',
    grep: 'the trust question shows the env each server sets',
  },
  {
    name: 'workspace-mcp-env-unfiltered',
    breaks: 'a workspace-defined MCP server may set NODE_OPTIONS, LD_PRELOAD, PATH, COMSPEC… in its env',
    file: 'src/sessions/mcp/mcpServers.ts',
    find: "const forbidden = origin === 'workspace' ? env.filter(",
    replace: "const forbidden = origin === 'workspace' && env.length < 0 ? env.filter(",
    tier: 'unit',
    grep: 'may not set what registry entries may not set',
  },
  {
    name: 'mcp-env-on-the-relay',
    breaks: "a stdio MCP server's env is given to the relay's own process (NODE_OPTIONS runs inside the relay)",
    file: 'src/sessions/mcp/mcpStatus.ts',
    find: "env: [{ name: 'ELECTRON_RUN_AS_NODE', value: '1' }, { name: RELAY_ENV, value: JSON.stringify(config) }],",
    replace: "env: [...server.env, { name: 'ELECTRON_RUN_AS_NODE', value: '1' }, { name: RELAY_ENV, value: JSON.stringify(config) }],",
    tier: 'unit',
    grep: 'the server’s env is applied to the server only|wraps a stdio server',
  },
  {
    name: 'relay-inherited-comspec',
    breaks: "the MCP relay runs a .cmd server through whatever an inherited COMSPEC names, not %SystemRoot%'s cmd.exe",
    file: 'src/node/mcpRelay/launch.ts',
    find: "    env.comspec = cmd;\n",
    replace: '',
    tier: 'unit',
    grep: 'the MCP relay starts a .cmd server through cross-spawn',
  },
  {
    name: 'relay-unsafe-batch-argument',
    breaks: 'the MCP relay passes a batch file an argument with a double quote, which cmd.exe cannot pass unchanged',
    file: 'src/node/mcpRelay/launch.ts',
    find: 'if (unsafe !== undefined) return { refused:',
    replace: 'if (unsafe !== undefined && !unsafe) return { refused:',
    tier: 'unit',
    grep: 'the MCP relay starts a .cmd server through cross-spawn',
  },
  {
    name: 'relay-hub-no-login-timeout',
    breaks: 'a connection to the relay hub that never logs in is kept open',
    file: 'src/node/localSocketServer.ts',
    find: 'const timer = setTimeout(() => s.destroy(), this.opts.loginMs);',
    replace: 'const timer = setTimeout(() => undefined, this.opts.loginMs);',
    tier: 'unit',
    grep: 'the hub ends a connection that does not log in within its time',
  },
  {
    name: 'relay-hub-no-session-cap',
    breaks: "one session's relays may take the hub's connections without limit",
    file: 'src/node/localSocketServer.ts',
    find: 'if (session.live.size >= this.opts.perSession) {',
    replace: 'if (session.live.size >= this.opts.perSession * 100) {',
    tier: 'unit',
    grep: 'one session’s relays are capped',
  },
  {
    name: 'relay-error-forges-log-lines',
    breaks: "a relay's error text reaches the log with its line breaks (forged log lines)",
    file: 'src/sessions/parts/mcpStatus.ts',
    find: 'this.core.log(oneLine(`MCP server "${server}": ${statusText(next)}`, 500));',
    replace: 'this.core.log(`MCP server "${server}": ${statusText(next)}`);',
    tier: 'unit',
    grep: 'a relay’s error text reaches the log as one bounded line',
  },
  {
    name: 'editor-context-path-text',
    breaks: 'the vscode-editor tools serve a file outside the folders reached through a link inside them',
    file: 'src/services/editorContext/scope.ts',
    find: 'return this.shown(file) && this.realInside(file);',
    replace: 'return this.shown(file);',
    tier: 'unit',
    grep: 'a link inside the folders to a file outside them is outside',
  },
  {
    name: 'selection-answer-unbounded',
    breaks: "get_selection's whole answer may exceed the documented 32,000 characters",
    file: 'src/services/editorContext/tools.ts',
    find: 'let json = MAX_ANSWER_CHARS - JSON.stringify(frame).length;',
    replace: 'let json = Number.MAX_SAFE_INTEGER;',
    tier: 'unit',
    grep: 'holds the whole selection answer to MAX_ANSWER_CHARS',
  },
  {
    name: 'mention-list-offers-all',
    breaks: 'every entry an @-mention list showed counts as offered, not only the one picked',
    file: 'src/chat/offeredFiles.ts',
    find: "for (const a of attachments) if (a.kind === 'file' || a.kind === 'selection') list.set(a.uri, a);",
    replace: "for (const a of attachments) if (a.kind === 'file' || a.kind === 'selection') list.set(a.uri, a);\n    this.note(attachments);",
    tier: 'unit',
    grep: 'an @-mention list is not an offer',
  },
  {
    name: 'context-folder-refusal-raw',
    breaks: 'the Add Folder refusal puts the folder name raw into the notification (a [x](command:…) name becomes a live link)',
    file: 'src/sessions/parts/sessionFolders.ts',
    find: 'const shown = forMessage(p, 500);',
    replace: 'const shown = p;',
    tier: 'unit',
    grep: 'a refusal names the folder escaped',
  },
  {
    name: 'context-folder-not-pinned-when-added',
    breaks: "a context folder's real path is pinned only when the window first sees it, not when the user adds it",
    file: 'src/sessions/parts/sessionFolders.ts',
    find: "    this.real.set(p, real);\n",
    replace: '',
    tier: 'unit',
    grep: 'pins the real path when added',
  },
  {
    name: 'azure-account-key-tail-kept',
    breaks: 'Copy Diagnostics keeps the tail of an Azure AccountKey value (and other connection-string keys)',
    file: 'src/agents/redact.ts',
    find: '(?:Account|SharedAccess|Primary|Secondary)Key',
    replace: '(?:NoSuchAccount)Key',
    tier: 'unit',
    grep: 'redacts AWS secret keys',
  },
  {
    name: 'bare-aws-secret-kept',
    breaks: 'Copy Diagnostics keeps a bare AWS secret access key (40 characters with a /)',
    file: 'src/agents/diagnosticsMarkdown.ts',
    find: '.replace(AWS_SECRET_RUN, (run) => (awsSecretShaped(run) ? REDACTED : run))',
    replace: '',
    tier: 'unit',
    grep: 'redacts AWS secret keys',
  },
  {
    name: 'listed-root-not-asked',
    breaks: "a past session's folder outside the workspace (from the agent's list) becomes its root without the user's yes",
    file: 'src/sessions/parts/pastSessions.ts',
    find: 'if (!(await this.host.rootAllowed())) {',
    replace: 'if (!(await this.host.rootAllowed()) && !this.host) {',
    tier: 'unit',
    grep: 'a session folder the user did not allow as its root',
  },
  {
    name: 'scratch-removed-while-agent-runs',
    breaks: "a no-folder session's scratch folder is removed while the agent process that had it still runs",
    file: 'src/node/scratchFolders.ts',
    find: "  await Promise.allSettled(holders);\n",
    replace: '',
    tier: 'unit',
    grep: 'a scratch folder goes only after the agent process that had it exited',
  },
  // ---- recovery (#26)
  {
    name: 'crash-while-opening-not-restarted',
    breaks: 'an agent that crashes while a session is being loaded or resumed on it is not restarted',
    file: 'src/agents/agentManager.ts',
    find: '(this.deps.hasSessionsOn(runtime) || runtime.inUseWhenLost === true)',
    replace: 'this.deps.hasSessionsOn(runtime)',
    tier: 'integration',
    grep: 'a crash during session/(load|resume) restarts the agent',
  },
  {
    name: 'lost-agent-forgets-its-sessions',
    breaks: 'when an agent closes its output, whether a session was open on it is forgotten',
    file: 'src/agents/agentRuntime.ts',
    find: 'this.lost = { inUse: this.sessions.inUse };',
    replace: 'this.lost = { inUse: false };',
    tier: 'unit',
    grep: 'closes its output and lingers',
  },
  {
    name: 'lingering-agent-stopped-as-asked',
    breaks: 'an agent that closed stdout and lingers is stopped as if asked to (not counted as a crash)',
    file: 'src/agents/agentRuntime.ts',
    find: 'void this.process.stop(false);',
    replace: 'void this.process.stop(true);',
    tier: 'unit',
    grep: 'closes its output and lingers',
  },
  {
    name: 'lingering-agent-not-stopped',
    breaks: 'an agent that closed stdout and lingers is left running until it exits by itself',
    file: 'src/agents/agentRuntime.ts',
    find: 'void this.process.stop(false);',
    replace: '',
    tier: 'unit',
    grep: 'closes its output and lingers',
  },
  {
    name: 'scratch-kept-on-close',
    breaks: 'the scratch folder of a no-folder session stays when its panel closes',
    file: 'src/sessions/parts/sessionFolders.ts',
    find: 'if (this.scratch && !services.settings.keepSessionsAlive())',
    replace: 'if (this.scratch && services.settings.keepSessionsAlive())',
    tier: 'unit',
    grep: 'the scratch folder goes with the session',
  },
  {
    // A link named like a scratch folder is refused twice over (scratchFolders' lstat, and removeTree's own
    // lstat and O_NOFOLLOW open), so the mutant breaks the walk: it lists through the folder's name, not its
    // open descriptor, and a subfolder swapped for a link between listing and removing is followed.
    name: 'scratch-removal-follows-links',
    breaks: 'removing a scratch folder follows a subfolder an agent swaps for a link while it is removed',
    file: 'src/node/safeRemove.ts',
    find: 'const child = `${self}/${name}`;',
    replace: 'const child = path.join(at, name);',
    tier: 'unit',
    grep: 'a subfolder swapped for a link to an outside folder between listing and removing',
  },
  {
    name: 'sweep-ignores-last-change',
    breaks: 'the sweep removes an old-named scratch folder that another window still uses',
    file: 'src/node/scratchFolders.ts',
    find: 'if (!st.isDirectory() || now - st.mtimeMs <= maxAgeMs) continue;',
    replace: 'if (!st.isDirectory()) continue;',
    tier: 'unit',
    grep: 'sweeps folders old by name and by last change',
  },
  {
    name: 'status-bar-says-stopped',
    breaks: 'the status bar reads the state of another agent for a restored panel (tree and bar disagree)',
    file: 'src/ui/statusBar.ts',
    find: 'agentStatusWords(this.agents.status(p.session.def.id))',
    replace: 'agentStatusWords(this.agents.status(`not-${p.session.def.id}`))',
    tier: 'integration',
    grep: 'after a reload, the status bar says of the agent what the Sessions view says',
  },
  {
    name: 'crash-cut-turn-archived-as-ended',
    breaks: 'a turn cut by a crash is archived as ended normally, not "interrupted"',
    file: 'src/sessions/parts/pastSessions.ts',
    find: ': { sessionUpdate: INTERRUPTED });',
    replace: ": { sessionUpdate: '_turn_end', stopReason: 'end_turn' });",
    tier: 'integration',
    grep: 'a turn cut by a crash is archived as interrupted',
  },
  {
    name: 'replayed-open-turn-not-marked',
    breaks: 'an archive whose last turn never ended is replayed without the "interrupted" mark',
    file: 'src/sessions/parts/pastSessions.ts',
    find: '      this.interrupted();\n      core.services.archive.append(core.def.id, sessionId, { sessionUpdate: INTERRUPTED });',
    replace: '      this.turnOpen = false;',
    tier: 'unit',
    grep: 'replaying the archive, each shape of an open turn ends as interrupted',
  },
  // ---- data at rest (#26)
  {
    name: 'archive-damaged-line-uncounted',
    breaks: 'a cut or damaged archive line is skipped silently (no count, so no notice)',
    file: 'src/sessions/store/transcriptArchive.ts',
    find: 'onUnreadable?.(++unreadable);',
    replace: '++unreadable;',
    tier: 'unit',
    grep: 'an archive cut mid-line',
  },
  {
    name: 'archive-skip-notice-dropped',
    breaks: 'the panel shows a damaged archive without saying that a line was skipped',
    file: 'src/sessions/parts/pastSessions.ts',
    find: 'if (unreadable > 0) core.emit(',
    replace: 'if (unreadable > 1e9) core.emit(',
    tier: 'integration',
    grep: 'an archive whose last line was cut',
  },
  {
    name: 'index-damage-unsaid',
    breaks: 'a damaged line in the session index is skipped without telling the user',
    file: 'src/sessions/store/sessionIndex.ts',
    find: 'if (unreadable > 0 || out.length === 0) {',
    replace: 'if (out.length === 0) {',
    tier: 'unit',
    grep: 'a damaged line in the middle is skipped',
  },
  {
    name: 'index-full-disk-said-every-time',
    breaks: 'a full disk is reported at every failed index write, not once per streak',
    file: 'src/sessions/store/sessionIndex.ts',
    find: 'if (!this.failing) this.options.onWriteError?.(err);',
    replace: 'this.options.onWriteError?.(err);',
    tier: 'unit',
    grep: 'a full disk: the index says so once',
  },
  {
    name: 'archive-full-disk-drops-lines',
    breaks: 'archive lines that failed to write (a full disk) are dropped instead of retried',
    file: 'src/sessions/store/transcriptArchive.ts',
    find: 'this.pending.set(file, [...raw, ...(this.pending.get(file) ?? [])]);',
    replace: '',
    tier: 'unit',
    grep: 'the archive on a full disk',
  },
  {
    name: 'session-delete-leaves-sidecars',
    breaks: "deleting a session leaves its pins, folders and checkpoints on disk",
    file: 'src/sessions/store/transcriptArchive.ts',
    find: 'for (const kind of SIDECAR_KINDS) await fs.promises.rm(',
    replace: 'for (const kind of SIDECAR_KINDS.slice(1)) await fs.promises.rm(',
    tier: 'unit',
    grep: 'deleting a session removes its archive and every kind it keeps',
  },
  {
    name: 'sidecar-unknown-version-read',
    breaks: 'a pins/folders/checkpoints file of a version this build does not know is read as if it were its own',
    file: 'src/sessions/store/sessionSidecar.ts',
    find: 'if (v !== format.version) return',
    replace: 'if (v === undefined) return',
    tier: 'unit',
    grep: 'a damaged, unknown-version or oversized file reads as empty',
  },
  {
    name: 'index-write-ignores-other-window',
    breaks: 'an index write replaces the file without merging what another window wrote',
    file: 'src/sessions/store/sessionIndex.ts',
    find: 'this.merge(this.parse(text))',
    replace: 'this.merge([])',
    tier: 'unit',
    grep: 'merging on write',
  },
  // ---- features no test would catch breaking (#26)
  {
    name: 'pattern-without-unicode-mode',
    breaks: "the elicitation pattern is checked without JSON Schema's Unicode mode",
    file: 'src/sessions/policy/patternCheck.ts',
    find: "new RegExp(pattern, 'u')",
    replace: "new RegExp(pattern, '')",
    tier: 'unit',
    grep: 'matches, refuses and ignores as JSON Schema says',
  },
  {
    name: 'pattern-too-slow-accepted',
    breaks: 'a value whose pattern check timed out is accepted',
    file: 'src/sessions/elicitationSchema.ts',
    find: "if (r === 'timeout') return",
    replace: "if (r === ('never' as string)) return",
    tier: 'unit',
    grep: 'a form field: a wrong value is refused with the pattern',
  },
  {
    name: 'links-any-scheme-to-browser',
    breaks: 'a link from an agent with any scheme but file: (command:, vscode:, javascript:…) goes to the browser',
    file: 'src/chat/panelHandlers.ts',
    find: "if (uri.scheme === 'http' || uri.scheme === 'https') {",
    replace: "if (uri.scheme !== 'file') {",
    tier: 'integration',
    grep: 'https and http open in the browser',
  },
  // No mutant for config.ts userValue alone: VS Code (1.139, and the oldest we claim) already leaves
  // machine- and application-scoped values out of the workspace and folder layers, inspect() included,
  // so reading them there changes nothing (tried: the test stays green). The test checks both layers:
  // the scopes in package.json and the behaviour. What the extension adds on top is telling the user:
  {
    name: 'user-only-setting-not-reported',
    breaks: "a folder's .vscode/settings.json that sets a user-only setting is not reported as ignored",
    file: 'src/config.ts',
    find: 'if (`${SECTION}.${key}` in v) note(key, where);',
    replace: 'if (`${SECTION}:${key}` in v) note(key, where);',
    tier: 'integration',
    grep: 'User-only settings: a folder’s value of every one is ignored',
  },
  {
    name: 'keep-alive-on-close-ignored',
    breaks: 'closing a panel closes its session on the agent even with sessions.keepAliveOnClose',
    file: 'src/sessions/agentSession.ts',
    find: 'rt.capabilities.canClose() && !this.services.settings.keepSessionsAlive() && !rt.connection.isClosed',
    replace: 'rt.capabilities.canClose() && !rt.connection.isClosed',
    tier: 'integration',
    grep: 'sessions.keepAliveOnClose: closing the panel',
  },
  {
    name: 'save-after-write-false-ignored',
    breaks: "files.saveAfterWrite: false still saves the agent's writes",
    file: 'src/config.ts',
    find: "return this.cfg.get<unknown>('files.saveAfterWrite') !== false;",
    replace: "return this.cfg.get<unknown>('files.saveAfterWrite') !== 0;",
    tier: 'integration',
    grep: 'files.saveAfterWrite: false leaves',
  },
  {
    name: 'custom-protected-paths-ignored',
    breaks: "the user's own files.protectedPaths is ignored (the defaults always apply)",
    file: 'src/config.ts',
    find: "return effectiveProtectedPaths(this.userValue('files.protectedPaths')).globs;",
    replace: "return effectiveProtectedPaths(undefined).globs;",
    tier: 'integration',
    grep: 'files.saveAfterWrite: false leaves',
  },
  {
    name: 'default-agent-ignored',
    breaks: 'ACP: New Session asks which agent even when defaultAgent names one',
    file: 'src/config.ts',
    find: "const v = this.cfg.get<unknown>('defaultAgent');",
    replace: "const v = this.cfg.inspect<unknown>('defaultAgent')?.defaultValue;",
    tier: 'integration',
    grep: 'defaultAgent: ACP: New Session opens it',
  },
  {
    name: 'keep-all-in-file-does-nothing',
    breaks: 'Keep All Changes in File answers yes but keeps nothing',
    file: 'src/services/files/hunkReview.ts',
    find: '    t.keep(file);\n',
    replace: '',
    tier: 'integration',
    grep: 'Keep All Changes in File and Undo All Changes in File',
  },
  {
    name: 'undo-all-in-file-does-nothing',
    breaks: 'Undo All Changes in File answers yes but undoes nothing',
    file: 'src/services/files/hunkReview.ts',
    find: '(await t.revert(file))',
    replace: '(await Promise.resolve(true))',
    tier: 'integration',
    grep: 'Keep All Changes in File and Undo All Changes in File',
  },
  {
    name: 'reject-reason-not-sent',
    breaks: "the reason the user gave for rejecting a permission never reaches the agent's next prompt",
    file: 'src/sessions/parts/messageQueue.ts',
    find: 'built.blocks.unshift(...(notes?.blocks ?? []));',
    replace: '',
    tier: 'unit',
    grep: 'a reason goes once with the next prompt',
  },
  {
    name: 'undo-file-asks-no-reason',
    breaks: "Undo All Changes in File undoes, but never asks why (the reason cannot reach the agent)",
    file: 'src/services/files/hunkReview.ts',
    find: 'this.told(t)?.undone(file);',
    replace: '',
    tier: 'integration',
    grep: 'undo a file with a reason',
  },
  {
    name: 'abandoned-load-races-the-next',
    breaks: 'a session opened again while its withdrawn load is still running sends a second session/load at once (copilot: "already loaded", the archive shown)',
    file: 'src/sessions/openSession.ts',
    find: "mode.kind === 'load' || mode.kind === 'resume' ? await oneAtATime(rt, mode.sessionId, call) : await call()",
    replace: 'await call()',
    tier: 'unit',
    grep: 'a load withdrawn but carried out',
  },
  {
    name: 'kept-edit-not-sent',
    breaks: "a change the user edited before keeping it is taken as kept as the agent left it: the agent never hears of the edit",
    file: 'src/sessions/parts/rejectReasons.ts',
    find: 'if (left.equals(now)) {',
    replace: 'if (left.length >= 0) {',
    tier: 'unit',
    grep: 'a change kept after the user edited it',
  },
  {
    name: 'editor-tools-never-offered',
    breaks: 'acpAgents.editorTools on, vscode-editor still lists only the read-only views (read_file, write_file, run_command unseen)',
    file: 'src/services/editorContext/tools.ts',
    find: 'return this.client() ? [...TOOLS, ...CLIENT_TOOLS] : TOOLS;',
    replace: 'return TOOLS;',
    tier: 'unit',
    grep: 'offered only while the session lends its handler',
  },
  {
    name: 'settle-ends-a-later-turns-watch',
    breaks: "a turn's end, settling a second late, ends the watch of a turn that began and ended meanwhile (its late file events are lost)",
    file: 'src/sessions/parts/fileCheckpoints.ts',
    find: 'this.core.busy() || this.turnsBegun !== turn;',
    replace: 'this.core.busy();',
    tier: 'unit',
    grep: 'keeps its watch until its own end settles',
  },
  {
    name: 'no-sweep-at-turn-end',
    breaks: 'a file the agent created where no watcher event came (files.watcherExclude, a late watcher) is never listed',
    file: 'src/services/files/changeTracker.ts',
    find: 'if (!baseline || !seen) return;',
    replace: 'return;',
    tier: 'integration',
    grep: 'where no file watcher looks',
  },
  {
    name: 'review-all-not-one-diff',
    breaks: 'Review All opens one diff after another instead of one multi-file diff',
    file: 'src/services/files/changeTracker.ts',
    find: "executeCommand('vscode.changes',",
    replace: "executeCommand('acpAgents.noSuchCommand',",
    tier: 'integration',
    grep: 'Keep All Changes in File and Undo All Changes in File',
  },
  {
    name: 'subagent-question-not-in-its-card',
    breaks: "a subagent's question is asked as the session's own, not inside its card",
    file: 'src/sessions/parts/elicitations.ts',
    find: 'return await this.request(params, token, child);',
    replace: 'return await this.request(params, token);',
    tier: 'integration',
    grep: 'a subagent’s question is asked inside its card',
  },
  {
    name: 'subagent-question-withdrawn-with-turn',
    breaks: "a subagent's question counts as the session's own (withdrawn when the session's turn ends)",
    file: 'src/sessions/parts/elicitations.ts',
    find: 'return await this.request(params, token, child);',
    replace: 'return await this.request(params, token);',
    tier: 'unit',
    grep: 'withdraws only the session',
  },
  {
    name: 'unknown-child-question-asked',
    breaks: 'a question from a subagent this session never announced is asked',
    file: 'src/sessions/parts/elicitations.ts',
    find: "if (child && !this.host.transcript().hasChild(child)) return { action: 'cancel' };",
    replace: '',
    tier: 'unit',
    grep: 'a subagent unknown here gets cancel without a question',
  },
  // ---- security (#27)
  {
    name: 'git-env-chooses-repository',
    breaks: "GIT_DIR / GIT_WORK_TREE in the extension host's environment reach the extension's git",
    file: 'src/services/safeGit.ts',
    find: 'if (!LOCATION_VARS.has(k.toUpperCase())) env[k] = v;',
    replace: 'env[k] = v;',
    tier: 'unit',
    grep: 'GIT_DIR and GIT_WORK_TREE in the environment never choose the repository',
  },
  {
    name: 'git-fsmonitor-allowed',
    breaks: "a repository's core.fsmonitor command runs in the extension's git status",
    file: 'src/services/safeGit.ts',
    find: "'core.fsmonitor=false', ",
    replace: '',
    tier: 'unit',
    grep: 'core.fsmonitor: the command never runs',
  },
  {
    name: 'git-bare-repository-discovered',
    breaks: 'a bare git directory an agent wrote as plain files is discovered and used',
    file: 'src/services/safeGit.ts',
    find: "'safe.bareRepository=explicit', ",
    replace: '',
    tier: 'unit',
    grep: 'a bare git directory written as ordinary files',
  },
  {
    name: 'git-filter-drivers-run',
    breaks: "a repository's clean and process filter drivers run in the extension's git status",
    file: 'src/services/safeGit.ts',
    find: "for (const k of ['clean', 'smudge', 'process'])",
    replace: "for (const k of ['smudge'])",
    tier: 'unit',
    grep: 'filter drivers \\(clean, smudge, process\\) named in .gitattributes never run',
  },
  // No mutant for the hooks: core.hooksPath=<null device> and GIT_OPTIONAL_LOCKS=0 each keep
  // post-index-change from running (status writes no index), so removing either one alone is
  // no breakage — the hooks test stays green, rightly.
  {
    name: 'native-text-keeps-bidi',
    breaks: 'untrusted text keeps control characters and bidi overrides in notifications',
    file: 'src/shared/nativeText.ts',
    find: ".replace(/\\t/g, ' ').replace(CONTROLS, '');",
    replace: ".replace(/\\t/g, ' ');",
    tier: 'unit',
    grep: 'drops control characters and bidi overrides',
  },
  {
    name: 'native-text-keeps-links',
    breaks: 'untrusted text keeps `[label](command:…)` links in notifications (forMessage)',
    file: 'src/shared/nativeText.ts',
    find: '.replace(/([\\]$])(?=\\(|$)/g,',
    replace: '.replace(/([$])(?=\\(|$)/g,',
    tier: 'unit',
    grep: 'forMessage: no payload can form a link or a codicon',
  },
  {
    name: 'native-text-keeps-icons',
    breaks: 'untrusted text keeps `$(icon)` codicon syntax in labels (forLabel)',
    file: 'src/shared/nativeText.ts',
    find: '.replace(/([\\]$])(?=\\(|$)/g,',
    replace: '.replace(/([\\]])(?=\\(|$)/g,',
    tier: 'unit',
    grep: 'forLabel: no payload can form a link or a codicon',
  },
  // ---- settings from the user's own values, terminals killed with their session, trust command, Show Log (#36 item 7)
  {
    name: 'archive-limit-user-value-ignored',
    breaks: "acpAgents.sessions.archiveMaxMB set by the user is ignored: the archive keeps the default 20 MB",
    file: 'src/config.ts',
    find: "const v = this.cfg.get<unknown>('sessions.archiveMaxMB');",
    replace: "const v = this.cfg.inspect<unknown>('sessions.archiveMaxMB')?.defaultValue;",
    tier: 'integration',
    grep: 'archiveMaxMB from the user',
  },
  {
    name: 'terminal-limit-user-value-ignored',
    breaks: "acpAgents.terminals.outputLimitMB set by the user is ignored: terminals keep the default 1 MB",
    file: 'src/config.ts',
    find: "const v = this.userValue('terminals.outputLimitMB');",
    replace: "const v = this.cfg.inspect<unknown>('terminals.outputLimitMB')?.defaultValue;",
    tier: 'integration',
    grep: 'outputLimitMB set by the user',
  },
  {
    name: 'terminals-outlive-agent-exit',
    breaks: 'a terminal the agent left running outlives the agent process',
    file: 'src/sessions/parts/agentRequests.ts',
    find: "if (id === def.id && core.runtime() && ['stopped', 'failed'].includes(manager.status(id))) this.killTerminals();",
    replace: "if (id === def.id && core.runtime() && ['never'].includes(manager.status(id))) this.killTerminals();",
    tier: 'integration',
    grep: 'a terminal left running is killed when its session closes',
  },
  {
    name: 'terminals-outlive-closed-panel',
    breaks: 'a terminal the agent left running outlives the panel the user closed',
    file: 'src/sessions/parts/agentRequests.ts',
    find: '    this.core.services.terminals.killAll(this.owner);\n    while (this.subscriptions.length)',
    replace: '    while (this.subscriptions.length)',
    tier: 'integration',
    grep: 'a terminal left running is killed when its session closes',
  },
  {
    name: 'mcp-trust-revoke-ignored',
    breaks: 'unchecking a workspace MCP server in Manage Trusted Workspace MCP Servers does not revoke it',
    file: 'src/commands/trust.ts',
    find: 'await ctx.mcpTrust.setTrusted(outcome.mcpTrusted);',
    replace: 'await ctx.mcpTrust.setTrusted([...ctx.mcpTrust.trusted(), ...outcome.mcpTrusted]);',
    tier: 'integration',
    grep: 'Manage Trusted Workspace MCP Servers lists a trusted',
  },
  {
    name: 'mcp-trust-forget-ignored',
    breaks: "Forget Them (the workspace defines no MCP servers now) keeps the trust left over",
    file: 'src/commands/trust.ts',
    find: '=== forget) await ctx.mcpTrust.forgetAll();',
    replace: '=== forget) await ctx.mcpTrust.setTrusted(ctx.mcpTrust.trusted());',
    tier: 'integration',
    grep: 'Manage Trusted Workspace MCP Servers lists a trusted',
  },
  {
    name: 'show-log-shows-nothing',
    breaks: "Show Log (the panel's action, the command) does not show the agent's output channel",
    file: 'src/agents/agentManager.ts',
    find: 'if (def) this.agentLog(def).show(true);',
    replace: "if (def) this.agentLog(def).info('show');",
    tier: 'integration',
    grep: 'Show Log, from the panel of a failed agent',
  },
  {
    name: 'exit-notification-show-log-ignored',
    breaks: "the Show Log of an agent's exit notification does nothing",
    file: 'src/agents/agentManager.ts',
    find: 'else if (choice === showLog) this.showLog(def.id);',
    replace: 'else if (choice === restart + showLog) this.showLog(def.id);',
    tier: 'integration',
    grep: 'Show Log, from the panel of a failed agent',
  },
  {
    name: 'needs-you-show-ignored',
    breaks: 'the Show of a needs-you notification does not bring the panel back',
    file: 'src/chat/attention.ts',
    find: 'if (choice === show) this.panel.reveal(undefined, false);',
    replace: 'if (choice === show + show) this.panel.reveal(undefined, false);',
    tier: 'integration',
    grep: 'Show on a needs-you notification brings the hidden panel back',
  },
  {
    name: 'write-lost-behind-a-stale-document',
    breaks: "an agent's fs/write_text_file of a file whose document in VS Code is older than the disk is edited into that document, which VS Code refuses to save: the agent is told it was written, the disk never gets it",
    file: 'src/services/files/fileService.ts',
    find: 'direct = save && before !== null && !doc.isDirty && staleAgainst(doc.getText(), before);',
    replace: 'direct = save && before !== null && !doc.isDirty && staleAgainst(doc.getText(), before) && before.length < 0;',
    tier: 'integration',
    grep: 'has not read again since its file changed on disk',
  },
  {
    name: 'v2-sign-in-methods-dropped',
    breaks: "an agent's v2 sign-in methods (named by methodId) are dropped as invalid: a v2 agent that needs a sign-in offers none",
    file: 'src/acp/decodeV2.ts',
    find: 'decodeAuthMethod(isObj(v) && v.id === undefined ? { ...v, id: v.methodId } : v, problems, where)',
    replace: 'decodeAuthMethod(v, problems, where)',
    tier: 'unit',
    grep: 'initialize: one capabilities object and info',
  },
  {
    name: 'v2-sign-in-with-v1-names',
    breaks: 'over ACP v2 the sign-in is sent as v1 authenticate, a method v2 agents do not have',
    file: 'src/acp/connection.ts',
    find: 'this.call(v2 ? P.LoginV2Request.type : P.AuthenticateRequest.type,',
    replace: 'this.call(v2 && !v2 ? P.LoginV2Request.type : P.AuthenticateRequest.type,',
    tier: 'unit',
    grep: 'sign-in over v2 is auth/login',
  },
  {
    name: 'remote-agent-offered-local-files',
    breaks: 'an agent by URL is declared the client fs/terminal methods, whose paths would be this machine\'s',
    file: 'src/agents/agentManager.ts',
    find: 'methods: spec.remote && !spec.remote.pathMap ? this.deps.clientMethods?.filter((m) => !LOCAL_ONLY_METHODS.test(m.method)) : this.deps.clientMethods,',
    replace: 'methods: spec.remote && LOCAL_ONLY_METHODS ? this.deps.clientMethods : this.deps.clientMethods,',
    tier: 'integration',
    grep: 'connects by URL, declares no client fs or terminal',
  },
  {
    name: 'remote-agent-given-stdio-servers',
    breaks: 'an agent by URL is handed stdio and loopback MCP servers it cannot reach, with no reason shown',
    file: 'src/sessions/parts/mcpStatus.ts',
    find: 'const out = unreachableFromRemote(sel.servers, core.def.name, remote.url);',
    replace: 'const out = unreachableFromRemote([], core.def.name, remote.url);',
    tier: 'integration',
    grep: 'connects by URL, declares no client fs or terminal',
  },
  {
    name: 'remote-tls-certificate-ignored',
    breaks: 'a wss:// agent whose certificate this machine does not trust is connected to anyway',
    file: 'src/agents/agentSocket.ts',
    find: 'followRedirects: false,',
    replace: 'followRedirects: false, rejectUnauthorized: false,',
    tier: 'unit',
    grep: 'a TLS certificate this machine does not trust',
  },
  {
    name: 'remote-drop-left-to-the-user',
    breaks: 'an agent by URL whose connection dropped is connected again, but its panel stays failed until the user clicks Restart',
    file: 'src/sessions/parts/reconnect.ts',
    find: 'if (rt !== runtime || !rt.process.spec.remote || !willRestart || !sessionId) return false;',
    replace: 'if (rt !== runtime || !willRestart || !sessionId || sessionId.length >= 0) return false;',
    tier: 'integration',
    grep: 'a dropped connection: the panel says so at once',
  },
  {
    name: 'remote-drop-never-reloads',
    breaks: 'after a dropped connection, an agent that can load sessions is given a new session: the conversation is lost to it',
    file: 'src/sessions/parts/reconnect.ts',
    find: 'const reloads = rt.capabilities.canLoad() || rt.capabilities.canResume();',
    replace: 'const reloads = rt.capabilities.canLoad() && false;',
    tier: 'integration',
    grep: 'reloads the same session from the agent',
  },
  {
    name: 'remote-reconnect-tried-once',
    breaks: 'an agent by URL whose server is down for a moment is tried once after a drop, then left failed',
    file: 'src/sessions/parts/reconnect.ts',
    find: 'const delay = RETRY_DELAYS_MS[attempt - 1];',
    replace: 'const delay = RETRY_DELAYS_MS[attempt + 99];',
    tier: 'integration',
    grep: 'the server killed: the panel says so',
  },
  {
    name: 'remote-typed-while-away-dropped',
    breaks: 'a message sent while an agent by URL is being connected again is dropped instead of waiting in the queue',
    file: 'src/sessions/parts/messageQueue.ts',
    find: "if ((!rt || !sessionId) && this.core.phase().kind === 'reconnecting') return await this.enqueue(text, attachments);",
    replace: "if ((!rt || !sessionId) && this.core.phase().kind === 'reconnecting') return undefined;",
    tier: 'unit',
    grep: 'while an agent by URL is connected again, what is typed waits',
  },
  {
    name: 'remote-queue-left-after-reconnect',
    breaks: 'after a reconnect, the messages that waited are never sent',
    file: 'src/sessions/agentSession.ts',
    find: 'resumed: () => this.queue.resume()',
    replace: 'resumed: () => undefined',
    tier: 'integration',
    grep: 'the server killed mid-turn',
  },
  {
    name: 'remote-reconnect-now-waits',
    breaks: 'Reconnect Now is logged but waits out the backoff anyway',
    file: 'src/sessions/parts/reconnect.ts',
    find: `      this.core.log('reconnecting: now, as asked');
      this.wake();`,
    replace: `      this.core.log('reconnecting: now, as asked');`,
    tier: 'integration',
    grep: 'the server killed mid-turn',
  },
  {
    name: 'remote-pathmap-paths-unmapped',
    breaks: "an agent by URL with a pathMap has its own machine's paths used here as they are",
    file: 'src/sessions/parts/agentRequests.ts',
    find: '    if (!paths) return req;',
    replace: '    if (!paths || req.method.length > 0) return req;',
    tier: 'integration',
    grep: 'with a pathMap: fs and terminal are offered',
  },
  {
    name: 'remote-pathmap-cwd-sent-local',
    breaks: "an agent by URL with a pathMap is sent this machine's folder as its cwd",
    file: 'src/sessions/parts/sessionFolders.ts',
    find: '      cwd: remoteCwd,',
    replace: '      cwd: remoteCwd && cwd,',
    tier: 'integration',
    grep: 'with a pathMap: fs and terminal are offered',
  },
  {
    name: 'remote-pathmap-not-offered-fs',
    breaks: 'an agent by URL with a pathMap is still declared no client file system or terminal',
    file: 'src/agents/agentManager.ts',
    find: 'methods: spec.remote && !spec.remote.pathMap ? this.deps',
    replace: 'methods: spec.remote ? this.deps',
    tier: 'integration',
    grep: 'with a pathMap: fs and terminal are offered',
  },
  {
    name: 'pathmap-climbs-out',
    breaks: "a path of the agent's that climbs out of a mapped folder with .. is mapped anyway",
    file: 'src/agents/pathMap.ts',
    find: "  if (rel === '..' || rel.startsWith(`..${f.sep}`) || f.isAbsolute(rel)) return undefined;",
    replace: '  if (f.isAbsolute(rel)) return undefined;',
    tier: 'unit',
    grep: 'a path in no mapped folder maps nowhere',
  },
  {
    name: 'v2-load-sent-as-v1',
    breaks: 'a past session of a v2 agent is reopened with session/load, a method v2 does not have',
    file: 'src/acp/connection.ts',
    find: "    if (this.protocolVersion !== PROTOCOL_V2) return this.call(P.LoadSessionRequest.type, params, token);\n",
    replace: '    return this.call(P.LoadSessionRequest.type, params, token);\n',
    tier: 'integration',
    grep: 'a past v2 session opens as v2 loads one',
  },
  {
    name: 'v2-agent-terminal-hidden',
    breaks: "a v2 agent's own terminal output is dropped instead of shown in its tool call",
    file: 'src/sessions/transcript.ts',
    find: '        out.push(...this.terminals.agent(update, t.allTools()));',
    replace: '        void this.terminals;',
    tier: 'unit',
    grep: 'an agent-owned terminal: its output chunks',
  },
  {
    name: 'v2-diff-shown-as-text',
    breaks: "a v2 diff (changes and a git patch) is not read into files and hunks: the panel shows no diff and the permission policy sees none of its paths",
    file: 'src/acp/decodeV2.ts',
    find: '  const files = decodeV2Diff(c, problems);\n',
    replace: '  const files: unknown[] = [];\n',
    tier: 'unit',
    grep: 'diffs: one file each, with its hunks',
  },
  {
    name: 'v2-diff-paths-unchecked',
    breaks: 'the paths of a v2 diff are not among those the permission policy checks: an edit of a protected path is approved automatically',
    file: 'src/sessions/parts/permissions.ts',
    find: ": c.type === 'patch' ? [c.path, ...(c.oldPath !== undefined ? [c.oldPath] : [])] : [])), rawInput: parseJson(tool.rawInput) };",
    replace: ": [])), rawInput: parseJson(tool.rawInput) };",
    tier: 'unit',
    grep: 'an ACP v2 diff naming a protected path is asked',
  },
  {
    name: 'v2-config-options-unnamed',
    breaks: "a v2 agent's config options (named by configId) from session/new are not read: no Mode or Model list in the panel",
    file: 'src/acp/connection.ts',
    find: '    return this.protocolVersion === PROTOCOL_V2 ? v2Opened(r) : r;',
    replace: '    return r;',
    tier: 'unit',
    grep: 'the config options of session/new, resume',
  },
  {
    name: 'v2-config-value-untagged',
    breaks: 'a config option set over v2 is sent without its value type ("id"): claude-agent-acp 0.101 refuses it, and the mode stays Auto',
    file: 'src/acp/connection.ts',
    find: "    const tagged = this.protocolVersion === PROTOCOL_V2 && !('type' in params) ? { ...(params as object), type: 'id' } : params;",
    replace: '    const tagged = params;',
    tier: 'unit',
    grep: 'the config options of session/new, resume',
  },
  {
    name: 'v2-replay-cut-unsaid',
    breaks: 'a v2 resume answered without replay_complete is shown as if its history were whole',
    file: 'src/acp/v2Replays.ts',
    find: '      if (!this.inFlight.get(sessionId)) this.cutShort.add(sessionId);\n',
    replace: '',
    tier: 'unit',
    grep: 'answered without replay_complete is a cut replay',
  },
  {
    name: 'restore-preview-before-the-turn-settled',
    breaks: '"Restore files to here" clicked just after a turn plans from an incomplete checkpoint: the files the turn changed last are missing',
    file: 'src/sessions/parts/fileCheckpoints.ts',
    find: '    await this.turnSettled();\n',
    replace: '',
    tier: 'unit',
    grep: 'clicked just after a turn: its preview waits until the turn settled',
  },
  {
    name: 'v2-patch-not-undoable',
    breaks: 'a file a v2 agent edits itself is listed in Changes without Undo: its v2 diff (the hunks) is not used to tell what it held',
    file: 'src/sessions/parts/fileCheckpoints.ts',
    find: "      else if (c.type === '_patch' && c.operation === 'modify' && path.isAbsolute(c.path)) this.changes.notePatch(c.path, c.hunks, this.core.roots());\n",
    replace: '',
    tier: 'integration',
    grep: 'files a v2 agent changes on its own',
  },
  {
    name: 'rewind-before-the-turn-settled',
    breaks: 'an Edit sent just after a turn looks for files to restore before the turn settled: none found, the fork goes on with the files unchanged',
    file: 'src/sessions/parts/rewind.ts',
    find: '    await this.turnSettled();\n',
    replace: '',
    tier: 'unit',
    grep: 'sent just after a turn: waits until the turn settled',
  },
  // ---- session worktrees (#39)
  {
    name: 'worktree-merge-driver-runs',
    breaks: "a repository's custom merge driver runs when Merge Back merges a worktree's branch",
    file: 'src/services/safeGit.ts',
    find: "[[`merge.${name}.driver`, driver], [`merge.${name}.recursive`, 'text']]",
    replace: '[]',
    tier: 'unit',
    grep: 'never run: not when made, committed, merged or removed',
  },
  {
    name: 'worktree-commit-signed',
    breaks: "committing a worktree's changes runs the repository's gpg.program (commit.gpgSign)",
    file: 'src/services/safeGit.ts',
    find: "  ['commit.gpgSign', 'false'],\n",
    replace: '',
    tier: 'unit',
    grep: 'never run: not when made, committed, merged or removed',
  },
  {
    name: 'worktree-checked-out-before-its-config',
    breaks: "a new worktree is checked out by `worktree add`, before its own configuration (a conditional include on its branch) is read: a filter named there runs",
    file: 'src/services/worktrees.ts',
    find: "['worktree', 'add', '--no-checkout', ",
    replace: "['worktree', 'add', ",
    tier: 'unit',
    grep: 'never run: not when made, committed, merged or removed',
  },
  {
    name: 'worktree-git-dir-from-its-file',
    breaks: "commands in a worktree find its git directory through its .git file (which an agent can rewrite) rather than the one recorded",
    file: 'src/services/worktrees.ts',
    find: 'return await SafeGit.open({ top: wt.dir, gitDir: wt.adminDir });',
    replace: 'const found = await discoverRepo(wt.dir);\n    return found && (await SafeGit.open(found));',
    tier: 'unit',
    grep: 'name its own git directory',
  },
  {
    name: 'worktree-merge-without-trial',
    breaks: 'Merge Back writes a conflicted merge into the checkout without first saying which files would conflict',
    file: 'src/services/worktrees.ts',
    find: '    if (!opts.conflicts) {\n',
    replace: '    if (opts.conflicts === false) {\n',
    tier: 'unit',
    grep: 'Merge back with a conflict leaves the conflict',
  },
  {
    name: 'worktree-checkout-sent',
    breaks: 'a worktree session gets the checkout it came from as an additional directory (inside its roots)',
    file: 'src/chat/sessionPorts.ts',
    find: '[s.worktrees.of(cwd)!.repoTop, ...s.worktrees.all().map((w) => w.dir)]',
    replace: '[...s.worktrees.all().map((w) => w.dir)]',
    tier: 'integration',
    grep: 'a session in a new worktree edits there',
  },
  {
    name: 'worktree-root-question',
    breaks: "a session opened in one of our worktrees is asked about as a folder outside the workspace",
    file: 'src/ctx.ts',
    find: ', ...this.worktrees.dirsFor(workspaceFolderPaths())]',
    replace: ']',
    tier: 'integration',
    grep: 'two worktree sessions edit the same file in parallel',
  },
];

// ------------------------------------------------------------------ the throwaway worktree

/**
 * @param {string} cwd
 * @param {...string} args
 */
function git(cwd, ...args) {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

/**
 * A detached worktree of HEAD under the temp folder, node_modules linked; reused when it exists.
 * @param {string} [suffix]
 */
function worktree(suffix = '') {
  const head = git(ROOT, 'rev-parse', 'HEAD');
  const dir = path.join(os.tmpdir(), `acp-break-features-${path.basename(ROOT)}${suffix}`);
  const known = git(ROOT, 'worktree', 'list', '--porcelain')
    .split('\n')
    .some((l) => l === `worktree ${dir}`);
  if (!known) {
    fs.rmSync(dir, { recursive: true, force: true });
    git(ROOT, 'worktree', 'prune');
    git(ROOT, 'worktree', 'add', '--detach', dir, head);
  } else {
    git(dir, 'checkout', '--', '.');
    git(dir, 'checkout', '--detach', head);
  }
  const nm = path.join(dir, 'node_modules');
  if (!fs.existsSync(nm)) fs.symlinkSync(fs.realpathSync(path.join(ROOT, 'node_modules')), nm);
  return dir;
}

// ------------------------------------------------------------------ running tests

/**
 * Runs a command in its own process group, its output appended to a log file.
 * @param {string} cmd
 * @param {string[]} args
 * @param {string} cwd
 * @param {string} logFile
 * @param {number} timeoutMs
 * @returns {Promise<{ code: number, timedOut: boolean }>}
 */
function run(cmd, args, cwd, logFile, timeoutMs) {
  return new Promise((resolve) => {
    const out = fs.openSync(logFile, 'a');
    fs.writeSync(out, `\n$ ${cmd} ${args.map((a) => JSON.stringify(a)).join(' ')}\n`);
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', out, out], detached: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }, timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      fs.closeSync(out);
      resolve({ code: code ?? (signal ? 128 : 1), timedOut });
    });
  });
}

/** @type {(file: string, n?: number) => string} */
const tail = (file, n = 15) => fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-n).join('\n');

/**
 * Runs the tests `grep` names in the worktree.
 * @param {string} dir
 * @param {'unit' | 'integration'} tier
 * @param {string} grep
 * @param {string} logFile
 * @returns {Promise<{ compiled: boolean, timedOut: boolean, code: number, passed: number, failed: number, ran: boolean, log: string }>}
 */
async function runTests(dir, tier, grep, logFile) {
  if (tier === 'unit') {
    const build = await run(process.execPath, ['esbuild.mjs', '--tests'], dir, logFile, UNIT_TIMEOUT_MS);
    if (build.code !== 0) return { compiled: false, timedOut: build.timedOut, code: build.code, passed: 0, failed: 0, ran: false, log: logFile };
    const start = fs.statSync(logFile).size;
    const mocha = path.join(dir, 'node_modules', 'mocha', 'bin', 'mocha.js');
    const r = await run(process.execPath, [mocha, '--config', 'test/unit/.mocharc.json', '--grep', grep], dir, logFile, UNIT_TIMEOUT_MS);
    const text = fs.readFileSync(logFile, 'utf8').slice(start);
    const passed = Number(/(\d+) passing/.exec(text)?.[1] ?? 0);
    const failed = Number(/(\d+) failing/.exec(text)?.[1] ?? 0);
    return { compiled: true, timedOut: r.timedOut, code: r.code, passed, failed, ran: passed + failed > 0, log: logFile };
  }
  const start = fs.statSync(logFile).size;
  const r = await run('flock', [LOCK, process.execPath, 'test/harness/test-all.mjs', '--tier', 'integration', '--grep', grep], dir, logFile, INTEGRATION_TIMEOUT_MS);
  const text = fs.readFileSync(logFile, 'utf8').slice(start);
  const notBuilt = /harness error: Error: (typecheck|lint|build with test hooks|build the tests) failed/.test(text);
  const m = /^integration: (\d+) passed, (\d+) failed/m.exec(text);
  const passed = Number(m?.[1] ?? 0);
  const failed = Number(m?.[2] ?? 0);
  return { compiled: !notBuilt, timedOut: r.timedOut, code: r.code, passed, failed, ran: passed + failed > 0, log: logFile };
}

/**
 * Before a real-host run takes the shared lock: the mutated source must typecheck and lint
 * (seconds here, and a mutant that breaks the build would only waste everyone's lock time).
 * @param {string} dir
 * @param {string[]} files the mutated files, for the lint
 * @param {string} logFile
 */
async function compiles(dir, files, logFile) {
  const tsc = await run(process.execPath, [path.join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json', '--noEmit'], dir, logFile, UNIT_TIMEOUT_MS);
  if (tsc.code !== 0) return false;
  const lint = await run(process.execPath, [path.join(dir, 'node_modules', 'eslint', 'bin', 'eslint.js'), '--quiet', ...new Set(files)], dir, logFile, UNIT_TIMEOUT_MS);
  return lint.code === 0;
}

// ------------------------------------------------------------------ mutants

/**
 * @param {string} text
 * @param {string} find
 */
function occurrences(text, find) {
  let n = 0;
  for (let i = text.indexOf(find); i !== -1; i = text.indexOf(find, i + find.length)) n++;
  return n;
}

/**
 * Why a mutant no longer applies to the code in `dir` (its string must occur exactly once), or undefined.
 * @param {Mutant} m
 * @param {string} [dir]
 */
function staleness(m, dir = ROOT) {
  const file = path.join(dir, m.file);
  if (!fs.existsSync(file)) return `${m.file} does not exist`;
  const n = occurrences(fs.readFileSync(file, 'utf8'), m.find);
  return n === 1 ? undefined : `its string occurs ${n} times in ${m.file} (must be once)`;
}

/**
 * @typedef {{ verdict: string, detail: string, secs: number }} Outcome
 * @param {string} dir
 * @param {Mutant} m
 * @param {string} logDir
 * @returns {Promise<Outcome>}
 */
async function runMutant(dir, m, logDir) {
  const started = Date.now();
  git(dir, 'checkout', '--', '.');
  const stale = staleness(m, dir);
  if (stale) return { verdict: 'stale', detail: stale, secs: 0 };
  const file = path.join(dir, m.file);
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(m.find, () => m.replace));
  const logFile = path.join(logDir, `${m.name}.log`);
  fs.writeFileSync(logFile, `mutant ${m.name}: ${m.breaks}\n${m.file}: ${JSON.stringify(m.find)} -> ${JSON.stringify(m.replace)}\n`);
  try {
    if (m.tier === 'integration' && !(await compiles(dir, [m.file], logFile))) return { verdict: 'did not compile', detail: tail(logFile), secs: (Date.now() - started) / 1000 };
    const r = await runTests(dir, m.tier, m.grep, logFile);
    const secs = (Date.now() - started) / 1000;
    if (r.timedOut) return { verdict: 'error', detail: `timed out (${logFile})`, secs };
    if (!r.compiled) return { verdict: 'did not compile', detail: tail(logFile), secs };
    if (!r.ran) return { verdict: 'error', detail: `no test ran for grep ${JSON.stringify(m.grep)} (${logFile})`, secs };
    if (r.code !== 0 && r.failed > 0) return { verdict: 'caught', detail: `${r.failed} failed, ${r.passed} passed`, secs };
    return { verdict: 'survived', detail: `${r.passed} passed, ${r.failed} failed, exit ${r.code} (${logFile})`, secs };
  } finally {
    git(dir, 'checkout', '--', '.');
  }
}

/**
 * `--batch`: the integration mutants in as few real-host runs as can be — each run applies
 * a group of mutants whose greps differ, runs their greps together, and gives each mutant
 * the results of the tests its grep names. The lock is shared by everyone on the machine:
 * one run instead of ten. A test broken by another mutant of its group would read as
 * caught, so a mutant's failing test must match its grep alone; run a mutant alone
 * (`--only`) to be sure of it.
 * @param {string} dir
 * @param {Mutant[]} mutants
 * @param {string} logDir
 * @returns {Promise<Row[]>}
 */
async function runBatched(dir, mutants, logDir) {
  /** @type {Mutant[][]} */
  const groups = [];
  for (const m of mutants) {
    const g = groups.find((x) => x.every((o) => o.grep !== m.grep));
    if (g) g.push(m);
    else groups.push([m]);
  }
  /** @type {Row[]} */
  const rows = [];
  for (const [i, group] of groups.entries()) {
    const started = Date.now();
    git(dir, 'checkout', '--', '.');
    const logFile = path.join(logDir, `batch-${i + 1}.log`);
    fs.writeFileSync(logFile, '');
    /** @type {Mutant[]} */
    const applied = [];
    for (const m of group) {
      const stale = staleness(m, dir);
      if (stale) {
        rows.push({ name: m.name, tier: m.tier, verdict: 'stale', detail: stale, secs: 0 });
        continue;
      }
      const file = path.join(dir, m.file);
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(m.find, () => m.replace));
      fs.appendFileSync(logFile, `mutant ${m.name}: ${m.breaks}\n${m.file}: ${JSON.stringify(m.find)} -> ${JSON.stringify(m.replace)}\n`);
      applied.push(m);
    }
    if (!(await compiles(dir, applied.map((m) => m.file), logFile))) {
      // Find the ones that do not compile, alone; run the rest.
      for (const m of [...applied]) {
        git(dir, 'checkout', '--', '.');
        const file = path.join(dir, m.file);
        fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(m.find, () => m.replace));
        if (await compiles(dir, [m.file], logFile)) continue;
        applied.splice(applied.indexOf(m), 1);
        rows.push({ name: m.name, tier: m.tier, verdict: 'did not compile', detail: `(${logFile})`, secs: 0 });
        console.log(`  ${m.name}: did not compile`);
      }
      git(dir, 'checkout', '--', '.');
      for (const m of applied) {
        const file = path.join(dir, m.file);
        fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(m.find, () => m.replace));
      }
    }
    console.log(`batch ${i + 1} of ${groups.length}: ${applied.map((m) => m.name).join(', ')}`);
    if (!applied.length) continue;
    try {
      const r = await runTests(dir, 'integration', applied.map((m) => `(?:${m.grep})`).join('|'), logFile);
      const secs = (Date.now() - started) / 1000;
      const lines = fs.readFileSync(logFile, 'utf8').split('\n');
      const failedLines = lines.filter((l) => /^\s*✗ /.test(l));
      const passedLines = lines.filter((l) => /^\s*✓ /.test(l));
      for (const m of applied) {
        const re = new RegExp(m.grep);
        const failed = failedLines.filter((l) => re.test(l));
        const passed = passedLines.filter((l) => re.test(l));
        const shared = failed.filter((l) => applied.some((o) => o !== m && new RegExp(o.grep).test(l)));
        /** @type {Outcome} */
        let o;
        if (r.timedOut) o = { verdict: 'error', detail: `timed out (${logFile})`, secs };
        else if (!r.compiled) o = { verdict: 'did not compile', detail: `batch ${i + 1}: ${tail(logFile)}`, secs };
        else if (shared.length) o = { verdict: 'error', detail: `a failing test matches another mutant's grep too: run it alone (${logFile})`, secs };
        else if (failed.length) o = { verdict: 'caught', detail: `${failed.length} failed, ${passed.length} passed`, secs };
        else if (passed.length) o = { verdict: 'survived', detail: `${passed.length} passed (${logFile})`, secs };
        else o = { verdict: 'error', detail: `no test ran for grep ${JSON.stringify(m.grep)} (${logFile})`, secs };
        console.log(`  ${m.name}: ${o.verdict}${o.verdict === 'caught' ? '' : ` — ${o.detail}`}`);
        rows.push({ name: m.name, tier: m.tier, ...o });
      }
    } finally {
      git(dir, 'checkout', '--', '.');
    }
  }
  return rows;
}

/** @typedef {Outcome & { name: string, tier: string }} Row */
/**
 * Every distinct grep unmutated: green, and matching at least one test.
 * @param {string} dir
 * @param {Mutant[]} mutants
 * @param {string} logDir
 * @returns {Promise<Row[]>}
 */
async function baseline(dir, mutants, logDir) {
  /** @type {Row[]} */
  const rows = [];
  const units = [...new Set(mutants.filter((m) => m.tier === 'unit').map((m) => m.grep))];
  git(dir, 'checkout', '--', '.');
  for (const grep of units) {
    const started = Date.now();
    const logFile = path.join(logDir, `baseline-unit-${rows.length}.log`);
    fs.writeFileSync(logFile, '');
    const r = await runTests(dir, 'unit', grep, logFile);
    const ok = r.compiled && !r.timedOut && r.code === 0 && r.ran && r.failed === 0;
    rows.push({ name: grep, tier: 'unit', verdict: ok ? 'green' : r.ran ? 'red' : 'no tests', detail: `${r.passed} passed, ${r.failed} failed`, secs: (Date.now() - started) / 1000 });
  }
  const integ = [...new Set(mutants.filter((m) => m.tier === 'integration').map((m) => m.grep))];
  if (integ.length) {
    // One real-host run for all of them; each grep must match a title that passed.
    const started = Date.now();
    const logFile = path.join(logDir, 'baseline-integration.log');
    fs.writeFileSync(logFile, '');
    const r = await runTests(dir, 'integration', integ.map((g) => `(?:${g})`).join('|'), logFile);
    const passedTitles = fs
      .readFileSync(logFile, 'utf8')
      .split('\n')
      // The integration tier's own report: `  ✓ <full title> (N ms)` for each test that passed.
      .filter((l) => /^\s*✓ /.test(l))
      .map((l) => l.replace(/^\s*✓ /, '').replace(/ \(\d+ ms\)$/, ''));
    const secs = (Date.now() - started) / 1000;
    for (const grep of integ) {
      const re = new RegExp(grep);
      const n = passedTitles.filter((t) => re.test(t)).length;
      const ok = r.compiled && !r.timedOut && r.code === 0 && r.failed === 0 && n > 0;
      rows.push({ name: grep, tier: 'integration', verdict: ok ? 'green' : n === 0 ? 'no tests' : 'red', detail: `${n} passed of ${r.passed} passed, ${r.failed} failed in the run`, secs });
    }
  }
  return rows;
}

// ------------------------------------------------------------------ main

/** @param {Row[]} rows */
function printTable(rows) {
  const w = Math.max(4, ...rows.map((r) => r.name.length));
  console.log(`\n${'name'.padEnd(w)} | tier        | result          | seconds`);
  console.log(`${'-'.repeat(w)}-|-------------|-----------------|--------`);
  for (const r of rows) console.log(`${r.name.padEnd(w)} | ${r.tier.padEnd(11)} | ${r.verdict.padEnd(15)} | ${r.secs.toFixed(0).padStart(7)}`);
}

async function main() {
  const args = process.argv.slice(2);
  const only = new Set();
  for (let i = 0; i < args.length; i++) if (args[i] === '--only') for (const n of (args[++i] ?? '').split(',')) if (n) only.add(n);
  const unknownOnly = [...only].filter((n) => !MUTANTS.some((m) => m.name === n));
  if (unknownOnly.length) {
    console.error(`No mutant named ${unknownOnly.join(', ')} (see --list).`);
    process.exit(2);
  }
  const tier = args.includes('--tier') ? args[args.indexOf('--tier') + 1] : undefined;
  const mutants = MUTANTS.filter((m) => (!only.size || only.has(m.name)) && (!tier || m.tier === tier));

  if (args.includes('--list')) {
    let stale = 0;
    for (const m of mutants) {
      const s = staleness(m);
      if (s) stale++;
      console.log(`${m.name} [${m.tier}]${s ? ` STALE: ${s}` : ''}\n  breaks: ${m.breaks}\n  ${m.file}  → tests: ${m.grep}`);
    }
    console.log(`\n${mutants.length} mutants (${mutants.filter((m) => m.tier === 'unit').length} unit, ${mutants.filter((m) => m.tier === 'integration').length} integration), ${stale} stale`);
    process.exit(stale ? 1 : 0);
  }

  const here = args.includes('--here');
  if (here && (tier !== 'unit' || args.includes('--baseline'))) {
    console.error('--here runs the unit mutants only: use it with --tier unit, without --baseline.');
    process.exit(2);
  }
  const jobs = args.includes('--jobs') ? Number(args[args.indexOf('--jobs') + 1]) : Math.min(2, os.availableParallelism());
  // One worktree per --tier, so a unit run may go on while a real-host run waits for the lock.
  const dir = here ? ROOT : worktree(tier ? `-${tier}` : '');
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-break-features-logs-'));
  console.log(`${here ? 'this checkout' : 'worktree'} ${dir} at ${git(dir, 'rev-parse', '--short', 'HEAD')}${here ? ' (working tree)' : ''}; logs in ${logDir}`);

  if (args.includes('--baseline')) {
    const rows = await baseline(dir, mutants, logDir);
    printTable(rows);
    const bad = rows.filter((r) => r.verdict !== 'green');
    for (const r of bad) console.log(`\n${r.name} [${r.tier}]: ${r.verdict} — ${r.detail}`);
    console.log(`\n${rows.length - bad.length} of ${rows.length} greps green and non-empty`);
    process.exit(bad.length ? 1 : 0);
  }

  /** @type {Row[]} */
  const rows = [];
  const batched = args.includes('--batch');
  // Unit mutants first (seconds each, on one build), then the real-host ones in order.
  const units = mutants.filter((x) => x.tier === 'unit');
  if (units.length) {
    const started = Date.now();
    // --no-build (with --here): out/ is this checkout's build already (npm test has just made it).
    const build = here && args.includes('--no-build') ? { status: 0, signal: null } : spawnSync(process.execPath, ['esbuild.mjs', '--tests'], { cwd: dir, stdio: 'inherit' });
    if (build.status !== 0) {
      console.log(`building the tests failed (exit ${build.status ?? build.signal})`);
      process.exit(1);
    }
    const outcomes = await runUnitMutants(dir, units, {
      logDir,
      jobs,
      staleness,
      onDone: (m, r) => console.log(`${m.name} [unit] … ${r.verdict} (${r.secs.toFixed(0)} s)${r.verdict === 'caught' ? '' : `\n  ${r.detail.replace(/\n/g, '\n  ')}`}`),
    });
    for (const m of units) rows.push({ name: m.name, tier: m.tier, ...(outcomes.get(m.name) ?? { verdict: 'error', detail: 'not run', secs: 0 }) });
    console.log(`${units.length} unit mutants in ${((Date.now() - started) / 1000).toFixed(0)} s (${jobs} at a time, one build)`);
  }
  for (const m of mutants.filter((x) => x.tier === 'integration' && !batched)) {
    process.stdout.write(`${m.name} [${m.tier}] … `);
    const r = await runMutant(dir, m, logDir);
    console.log(`${r.verdict} (${r.secs.toFixed(0)} s)${r.verdict === 'caught' ? '' : `\n  ${r.detail.replace(/\n/g, '\n  ')}`}`);
    rows.push({ name: m.name, tier: m.tier, ...r });
  }
  if (batched) rows.push(...(await runBatched(dir, mutants.filter((x) => x.tier === 'integration'), logDir)));
  printTable(rows);
  const bad = rows.filter((r) => r.verdict !== 'caught');
  console.log(`\n${rows.length - bad.length} of ${rows.length} mutants caught${bad.length ? `; not caught: ${bad.map((r) => `${r.name} (${r.verdict})`).join(', ')}` : ''}`);
  process.exit(bad.length ? 1 : 0);
}

/**
 * `npm test`'s baseline of the integration greps, at no cost of its own: each must match at least
 * one test that passed in the run's integration tier (a grep that matches nothing would make its
 * mutant "caught" by an error, or by no test at all).
 * @param {string[]} passedTitles the full titles of the integration tests that passed
 * @returns {string[]} one line per grep that matched none
 */
export function integrationGrepsUnmatched(passedTitles) {
  const greps = [...new Set(MUTANTS.filter((m) => m.tier === 'integration').map((m) => m.grep))];
  return greps.filter((g) => !passedTitles.some((t) => new RegExp(g).test(t))).map((g) => `the grep ${JSON.stringify(g)} of ${MUTANTS.filter((m) => m.grep === g).map((m) => m.name).join(', ')} matches no integration test that passed`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(fs.realpathSync(process.argv[1])).href) await main();
