// Launches code-server (a real VS Code 1.139.1: server, web workbench, Node
// extension host; with ACP_TEST_HOST=oldest the oldest VS Code we claim, 1.96)
// on 127.0.0.1 with throw-away directories, and a headless Chromium (Debian's)
// driven by playwright-core to show its workbench.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { CACHE_ROOT, HOSTS, ensureCodeServer, ensureDebianPackages } from './tools.mjs';

export const CHROMIUM = process.env.ACP_CHROMIUM || '/usr/bin/chromium';

/** The code-server to test on: HOSTS.current, or HOSTS.oldest when ACP_TEST_HOST=oldest. */
export function testHost() {
  const name = process.env.ACP_TEST_HOST ?? 'current';
  if (name !== 'current' && name !== 'oldest') throw new Error(`ACP_TEST_HOST=${name}: expected "current" or "oldest"`);
  return HOSTS[name];
}

/** @returns {Promise<number>} */
export async function freePort() {
  return await new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (srv.address());
      srv.close(() => resolve(port));
    });
  });
}

/**
 * User settings every test instance starts with.
 * @param {Record<string, unknown>} [extra]
 */
export function baseUserSettings(extra = {}) {
  return {
    'chat.disableAIFeatures': true,
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'security.workspace.trust.enabled': false,
    'window.restoreWindows': 'none',
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    ...extra,
  };
}

/**
 * @typedef {object} CodeServerOptions
 * @property {Record<string, unknown>} [userSettings] merged over baseUserSettings()
 * @property {string} [extensionsDir]
 * @property {Record<string, string>} [env] more environment (for the extension host too)
 * @property {string[]} [installVsix] .vsix files installed first
 * @property {boolean} [workspaceTrust]
 * @property {number} [port]
 * @property {string[]} [extraArgs] more code-server arguments (e.g. `--inspect-extensions=PORT` to profile the extension host)
 * @property {string} [locale] VS Code's display language (`--locale`); other than English it needs a language pack in `languagePacks`
 * @property {(dirs: { userDataDir: string, extensionsDir: string }) => void | Promise<void>} [beforeStart] runs after the .vsix installs, before code-server starts
 * @property {Record<string, string>} [languagePacks] locale → a language pack's `vscode` translations file (written to languagepacks.json, as VS Code does on installing one)
 */

/**
 * @typedef {object} CodeServer
 * @property {string} url
 * @property {number} port
 * @property {string} dir the throw-away directory (code-server.log is in it)
 * @property {string} userDataDir
 * @property {string} extensionsDir
 * @property {() => Promise<void>} stop kills its process group
 * @property {(lines?: number) => string} logTail
 * @property {number | undefined} pid
 */

/**
 * Installs a .vsix into `extensionsDir` as `code-server --install-extension` does — and through it, once
 * per .vsix (by its SHA-256) and code-server version: the first workbench of a run installs it into a
 * folder of the test cache, every later one gets a copy of that folder, with the paths in
 * `extensions.json` rewritten to its own (about 5 s saved per workbench; the files are the same bytes
 * code-server unpacked). Older installs in the cache are removed.
 * @param {{ vsix: string, host: string, nodeBin: string, entry: string, env: NodeJS.ProcessEnv, logFile: string, extensionsDir: string, config: string }} o
 */
async function installVsix({ vsix, host, nodeBin, entry, env, logFile, extensionsDir, config }) {
  const hash = crypto.createHash('sha256').update(fs.readFileSync(vsix)).digest('hex').slice(0, 16);
  const root = path.join(CACHE_ROOT, 'vsix-installed');
  const template = path.join(root, `${host}-${hash}`);
  const manifest = 'extensions.json';
  if (!fs.existsSync(path.join(template, manifest))) {
    fs.mkdirSync(root, { recursive: true });
    const staging = fs.mkdtempSync(path.join(root, '.staging-'));
    const stagingUd = path.join(staging, 'ud');
    const stagingExt = path.join(staging, 'ext');
    fs.mkdirSync(stagingUd);
    fs.mkdirSync(stagingExt);
    await runToEnd(nodeBin, [entry, '--config', config, '--user-data-dir', stagingUd, '--extensions-dir', stagingExt, '--install-extension', vsix, '--force'], env, logFile);
    if (!fs.existsSync(path.join(stagingExt, manifest))) throw new Error(`code-server --install-extension ${vsix} wrote no ${manifest}`);
    // Paths in the manifest name the staging folder: written as a placeholder, filled per workbench.
    const text = fs.readFileSync(path.join(stagingExt, manifest), 'utf8');
    if (encodeURI(stagingExt) !== stagingExt) throw new Error(`the test cache's path needs no URI escaping: ${stagingExt}`);
    fs.writeFileSync(path.join(stagingExt, manifest), text.replaceAll(stagingExt, '@@EXTENSIONS_DIR@@'));
    // Not this one: another process of the run (an e2e shard) may have installed it meanwhile and be copying it.
    for (const old of fs.readdirSync(root)) if (!old.startsWith('.') && path.join(root, old) !== template) fs.rmSync(path.join(root, old), { recursive: true, force: true });
    try {
      fs.renameSync(stagingExt, template);
    } catch (err) {
      // Another run installed the same .vsix meanwhile: its copy is as good.
      if (!fs.existsSync(path.join(template, manifest))) throw err;
    }
    fs.rmSync(staging, { recursive: true, force: true });
  }
  for (const e of fs.readdirSync(template)) {
    if (e === manifest) continue;
    fs.cpSync(path.join(template, e), path.join(extensionsDir, e), { recursive: true, force: true });
  }
  if (encodeURI(extensionsDir) !== extensionsDir) throw new Error(`an extensions folder whose path needs no URI escaping: ${extensionsDir}`);
  const own = fs.readFileSync(path.join(template, manifest), 'utf8').replaceAll('@@EXTENSIONS_DIR@@', extensionsDir);
  const target = path.join(extensionsDir, manifest);
  // Merged with what is there (another .vsix installed before this one).
  const before = fs.existsSync(target) ? JSON.parse(fs.readFileSync(target, 'utf8')) : [];
  const added = JSON.parse(own);
  const ids = new Set(added.map((/** @type {{ identifier: { id: string } }} */ x) => x.identifier.id));
  fs.writeFileSync(target, JSON.stringify([...before.filter((/** @type {{ identifier: { id: string } }} */ x) => !ids.has(x.identifier.id)), ...added]));
}

/**
 * Starts code-server.
 * With `workspaceTrust`, VS Code's workspace trust is on and nothing is trusted
 * up front: a folder opens in Restricted Mode (no startup prompt).
 * @param {CodeServerOptions} [opts]
 * @returns {Promise<CodeServer>}
 */
export async function startCodeServer(opts = {}) {
  const host = testHost();
  const { entry, nodeBin } = ensureCodeServer(host);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-cs-'));
  const userDataDir = path.join(dir, 'ud');
  const extensionsDir = opts.extensionsDir ?? path.join(dir, 'ext');
  for (const d of [userDataDir, extensionsDir, path.join(dir, 'tmp'), path.join(dir, 'xdg-config'), path.join(dir, 'xdg-data')]) {
    fs.mkdirSync(d, { recursive: true });
  }
  // User settings, and the same as the remote machine's settings: in code-server's
  // remote window, machine-scoped settings (acpAgents.agents) come from Machine/.
  for (const scope of ['User', 'Machine']) {
    fs.mkdirSync(path.join(userDataDir, scope), { recursive: true });
    const trust = opts.workspaceTrust ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never', 'security.workspace.trust.banner': 'always' } : {};
    fs.writeFileSync(path.join(userDataDir, scope, 'settings.json'), JSON.stringify(baseUserSettings({ ...trust, ...opts.userSettings }), null, 2));
  }
  fs.writeFileSync(path.join(dir, 'config.yaml'), 'auth: none\ncert: false\n');
  if (opts.languagePacks) {
    // `extensions` names the pack's extension: VS Code reads it for every installed language (without it the
    // list of languages throws, and the remote extension host gets no extension but the built-in ones).
    const packs = Object.fromEntries(
      Object.entries(opts.languagePacks).map(([locale, file]) => [
        locale,
        { hash: `test-${locale}`, label: locale, extensions: [{ extensionIdentifier: { id: `test.language-pack-${locale}` }, version: '1.0.0' }], translations: { vscode: file } },
      ]),
    );
    fs.writeFileSync(path.join(userDataDir, 'languagepacks.json'), JSON.stringify(packs));
  }
  /** @type {NodeJS.ProcessEnv} */
  const env = {
    ...process.env,
    ...opts.env,
    XDG_CONFIG_HOME: path.join(dir, 'xdg-config'),
    XDG_DATA_HOME: path.join(dir, 'xdg-data'),
    TMPDIR: path.join(dir, 'tmp'),
    // Keep an outer code-server/VS Code session from leaking into this one.
    VSCODE_IPC_HOOK_CLI: '',
  };
  for (const k of Object.keys(env)) if (k.startsWith('npm_')) delete env[k];
  const logFile = path.join(dir, 'code-server.log');
  const common = [
    '--config', path.join(dir, 'config.yaml'),
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
  ];

  for (const vsix of opts.installVsix ?? []) {
    await installVsix({ vsix, host: host.codeServer, nodeBin, entry, env, logFile, extensionsDir, config: path.join(dir, 'config.yaml') });
  }
  await opts.beforeStart?.({ userDataDir, extensionsDir });

  const port = opts.port ?? (await freePort());
  const out = fs.openSync(logFile, 'a');
  const child = spawn(
    nodeBin,
    [
      entry,
      ...common,
      '--auth', 'none',
      '--bind-addr', `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      ...(opts.workspaceTrust ? [] : ['--disable-workspace-trust']),
      '--disable-getting-started-override',
      ...(host.noVscodeOption ? [] : ['--vscode-option', 'enable-smoke-test-driver']),
      ...(opts.locale ? ['--locale', opts.locale] : []),
      ...(opts.extraArgs ?? []),
    ],
    { env, detached: true, stdio: ['ignore', out, out] },
  );
  fs.closeSync(out);
  const url = `http://127.0.0.1:${port}`;
  /** @type {{ code: number | null, signal: NodeJS.Signals | null } | null} */
  let exited = null;
  child.on('exit', (code, signal) => {
    exited = { code, signal };
  });

  const stop = async () => {
    if (child.pid === undefined) return;
    killGroup(child.pid, 'SIGTERM');
    const deadline = Date.now() + 5000;
    while (exited === null && Date.now() < deadline) await sleep(100);
    killGroup(child.pid, 'SIGKILL');
  };
  const logTail = (lines = 40) => {
    try {
      return fs.readFileSync(logFile, 'utf8').split('\n').slice(-lines).join('\n');
    } catch {
      return '(no code-server log)';
    }
  };

  // Wait until it answers HTTP.
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited) throw new Error(`code-server exited early (${JSON.stringify(exited)}):\n${logTail()}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`code-server did not start within 30 s:\n${logTail()}`);
    }
    await sleep(150);
  }
  return { url, port, dir, userDataDir, extensionsDir, stop, logTail, pid: child.pid };
}

/**
 * @param {string} cmd
 * @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 * @param {string} logFile
 * @returns {Promise<void>}
 */
function runToEnd(cmd, args, env, logFile) {
  return new Promise((resolve, reject) => {
    const out = fs.openSync(logFile, 'a');
    const child = spawn(cmd, args, { env, stdio: ['ignore', out, out] });
    fs.closeSync(out);
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${path.basename(args[0])} ${args.slice(-3).join(' ')} exited ${code}`))));
  });
}

/**
 * @param {number} pid
 * @param {NodeJS.Signals} signal
 */
export function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/**
 * @param {number} ms
 * @returns {Promise<void>}
 */
export function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

/** Launches headless Debian Chromium through playwright-core. */
/** @param {string[]} [extraArgs] */
export async function launchBrowser(extraArgs = []) {
  if (!process.env.ACP_CHROMIUM && !fs.existsSync(CHROMIUM)) ensureDebianPackages(['chromium']);
  const { chromium } = await import('playwright-core');
  return await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      ...extraArgs,
    ],
  });
}

/** The workbench URL for a folder (or a .code-workspace file), with optional development payload entries. */
/**
 * @param {{ url: string }} server
 * @param {string} folder
 * @param {string[][]} [payload]
 */
export function workbenchUrl(server, folder, payload) {
  const u = new URL(server.url);
  u.searchParams.set(folder.endsWith('.code-workspace') ? 'workspace' : 'folder', folder);
  if (payload) u.searchParams.set('payload', JSON.stringify(payload));
  return u.toString();
}
