/**
 * Environment variables that someone other than the user (an ACP Registry
 * entry, a repository's MCP configuration) may not set for a process the
 * extension starts. Each one changes *what runs* or *where traffic goes*
 * rather than how the program behaves:
 *
 * - which program or package runs: `PATH`, package indexes and their
 *   settings (`npm_config_*`, `UV_*`, `PIP_*`, yarn, pnpm, bun, corepack,
 *   Go, Cargo), the shell a `.cmd` runs in (`COMSPEC`), `SHELL`, editors
 *   and pagers a tool may start, `GIT_*` (`GIT_SSH_COMMAND`, `GIT_CONFIG_*`,
 *   `GIT_EXEC_PATH`, askpass…);
 * - code injected into every process: `NODE_OPTIONS`, `LD_*`, `DYLD_*`,
 *   `BASH_ENV`, `ENV`, `PYTHON*` start-up variables, `RUBYOPT`, `PERL5OPT`,
 *   Java and .NET hooks, PowerShell's module path;
 * - where traffic goes and whom it trusts: `*_BASE_URL` and other API
 *   endpoints, proxies (`HTTPS_PROXY`, `http_proxy`, `ALL_PROXY`…), CA
 *   bundles and TLS switches (`NODE_TLS_REJECT_UNAUTHORIZED`,
 *   `NODE_EXTRA_CA_CERTS`, `SSL_CERT_FILE`, `REQUESTS_CA_BUNDLE`…),
 *   `SSLKEYLOGFILE`;
 * - where configuration and credentials are read from: `HOME`,
 *   `USERPROFILE`, `APPDATA`, `XDG_*`, cloud SDK config files;
 * - the editor's own switches: `ELECTRON_*`, `VSCODE_*`.
 *
 * Names are compared without regard to case (Windows reads them so, and
 * `http_proxy` is as live as `HTTP_PROXY`). A few harmless names under a
 * refused prefix stay allowed (`NODE_ENV`, `PYTHONUNBUFFERED`…).
 * Pure: no `vscode`.
 */

const REFUSED: readonly string[] = [
  // What runs.
  'PATH', 'PATHEXT', 'COMSPEC', 'SHELL', 'SHELLOPTS', 'BASHOPTS', 'BASH_ENV', 'ENV', 'ZDOTDIR', 'PROMPT_COMMAND', 'PS4', 'IFS',
  'EDITOR', 'VISUAL', 'PAGER', 'MANPAGER', 'BROWSER', 'LESSOPEN', 'LESSCLOSE', 'SSH_ASKPASS', 'SUDO_ASKPASS', 'PSModulePath',
  'GIT_.*', 'NPM_CONFIG_.*', 'YARN_.*', 'PNPM_.*', 'BUN_.*', 'COREPACK_.*', 'UV_.*', 'PIP_.*', 'PIPX_.*', 'POETRY_.*', 'CONDA_.*',
  'GO(FLAGS|PROXY|PATH|ROOT|TOOLCHAIN|PRIVATE|NOPROXY|NOSUMDB|NOSUMCHECK|INSECURE|SUMDB|ENV)', 'CARGO_.*', 'RUSTUP_.*', 'RUSTC.*', 'RUSTFLAGS',
  'GEM_.*', 'BUNDLE_.*', 'DOCKER_.*',
  // Code injected into every process.
  'NODE_.*', 'LD_.*', 'DYLD_.*', 'PYTHON.*', 'RUBYOPT', 'RUBYLIB', 'PERL5OPT', 'PERL5LIB', 'PERLLIB', 'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS', 'CLASSPATH', 'DOTNET_STARTUP_HOOKS', 'CORECLR_.*', 'COR_ENABLE_PROFILING', 'COR_PROFILER.*',
  // Where traffic goes, and whom it trusts.
  '.*_BASE_URL', '.*_API_BASE', '.*_API_URL', '.*_API_HOST', '.*ENDPOINT.*', 'OLLAMA_HOST', '.*PROXY.*', '.*SSL.*', '.*TLS.*', '.*CA_BUNDLE.*',
  '.*CA_CERTS?', '.*_CA_FILE', '.*_CA_PATH',
  // Where configuration and credentials are read from.
  'HOME', 'USERPROFILE', 'HOMEDRIVE', 'HOMEPATH', 'APPDATA', 'LOCALAPPDATA', 'XDG_.*', 'AWS_CONFIG_FILE', 'AWS_SHARED_CREDENTIALS_FILE',
  'GOOGLE_APPLICATION_CREDENTIALS', 'CLOUDSDK_.*', 'KUBECONFIG', 'NETRC', 'CURL_HOME', 'WGETRC',
  // The editor's own switches.
  'ELECTRON_.*', 'VSCODE_.*',
];

/** Harmless names under a refused prefix. */
const ALLOWED = /^(NODE_ENV|NODE_NO_WARNINGS|PYTHONUNBUFFERED|PYTHONIOENCODING|PYTHONUTF8|PYTHONDONTWRITEBYTECODE)$/i;

const REFUSED_RE = new RegExp(`^(?:${REFUSED.join('|')})$`, 'i');

/**
 * Whether an environment variable of this name may not be set by a registry
 * entry or a repository's configuration (see the list above).
 */
export function isRefusedEnvName(name: string): boolean {
  return !ALLOWED.test(name) && REFUSED_RE.test(name);
}
