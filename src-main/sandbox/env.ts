/**
 * The environment a project's programs see: the host's, minus anything that looks like a secret or
 * belongs to Forge itself, plus settings that keep tools non-interactive and their output plain.
 * PATH, HOME, LANG, TMPDIR and toolchain variables (PYENV_ROOT, GOPATH, …) pass through so the
 * project's own toolchain still works; the sandbox then replaces HOME and TMPDIR.
 */

/** Names that look like credentials: dropped from every child's environment. */
export const SECRET_ENV_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE|_PAT$|_DSN$|DATABASE_URL)/i;
/**
 * Whole families dropped: vendor accounts, Forge's own settings, the host's Node/Electron/test-runner
 * state, and git's (GIT_CONFIG_COUNT/KEY/VALUE, GIT_EXEC_PATH, GIT_SSH_COMMAND would let an
 * environment set what `git -c` is refused for).
 */
const DROPPED_PREFIXES = ['ANTHROPIC_', 'OPENAI_', 'VOYAGE_', 'AWS_', 'AZURE_', 'GOOGLE_', 'GCP_', 'GH_', 'GITHUB_', 'FORGE_', 'ELECTRON_', 'VITEST', 'GIT_'];
const DROPPED_NAMES = new Set(['NODE_OPTIONS', 'NODE_ENV', 'TEST', 'SSH_AUTH_SOCK', 'LD_PRELOAD', 'LD_LIBRARY_PATH', 'BASH_ENV', 'ENV']);
/** A value carrying a password in a URL (scheme://user:pass@host) is dropped whatever its name. */
const CREDENTIAL_URL = /[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:[^\s/@]+@/i;

export function scrubEnv(source: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue;
    const upper = name.toUpperCase();
    if (SECRET_ENV_NAME.test(name) || DROPPED_NAMES.has(upper) || DROPPED_PREFIXES.some((p) => upper.startsWith(p))) continue;
    if (CREDENTIAL_URL.test(value)) continue;
    env[name] = value;
  }
  env.CI = '1';
  env.NO_COLOR = '1';
  env.FORCE_COLOR = '0';
  return env;
}
