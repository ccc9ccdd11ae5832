/**
 * Per-program argument checks for run_command: flags that make an allowed program run code written
 * on the command line (or a command named in its arguments), and git's ways of running a shell
 * command with no project file involved (`git -c alias.x='!cmd' x`). An instruction injected into
 * the builder's context would otherwise reach them; code in a project file at least shows up in the
 * diff and the audit. Each refusal returns the offending flag and why; the sandbox is the real wall,
 * these keep the obvious doors shut where it is missing.
 */

export interface FlagRefusal {
  reason: 'inline_code' | 'git_config' | 'git_alias' | 'git_exec';
  message: string;
}

const inline = (program: string, flag: string): FlagRefusal => ({
  reason: 'inline_code',
  message: `"${program} ${flag}" runs code written on the command line; put it in a file in the project and run that file, so it is reviewed and versioned with the project.`,
});

/** Long flags (also `--flag=value`) that take code or a command to run, per program. */
const LONG_FLAGS: Record<string, readonly string[]> = {
  node: ['--eval', '--print', '--require', '--import', '--loader', '--experimental-loader', '--env-file'],
  npx: ['--call'],
  npm: ['--call'],
  make: ['--eval'],
  go: ['-exec', '-toolexec', '--exec', '--toolexec'],
  cargo: ['--config'],
};
/** Short flags that take code; also found inside a cluster such as `node -pe` or `python3 -Ic`. */
const SHORT_FLAGS: Record<string, string> = { node: 'epr', python: 'c', python3: 'c', npx: 'c', npm: 'c', make: 'E' };
/** Shells and launchers an npx/npm exec may not start (they run whatever their argument says). */
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'fish', 'ksh', 'csh', 'tcsh', 'env', 'xargs', 'nohup', 'timeout']);
/** make variables that choose the shell its recipes run in. */
const MAKE_SHELL_VARS = /^(SHELL|MAKESHELL|\.SHELLFLAGS)=/;

/** The first refusal for `argv` (program already allow-listed), or null. */
export function refuseProgramFlags(argv: readonly string[]): FlagRefusal | null {
  const program = argv[0];
  if (program === 'git') return refuseGit(argv);
  const args = argv.slice(1);
  for (const a of args) {
    const long = LONG_FLAGS[program]?.find((f) => a === f || a.startsWith(`${f}=`));
    if (long) return inline(program, long);
    const shorts = SHORT_FLAGS[program];
    if (shorts && /^-[A-Za-z]+$/.test(a)) {
      const hit = [...shorts].find((s) => a.slice(1).includes(s));
      if (hit) return inline(program, `-${hit}`);
    }
    if (program === 'make' && MAKE_SHELL_VARS.test(a)) return inline(program, a.split('=')[0]);
  }
  // npx <pkg> …, npm exec|x <pkg> …: the program it starts gets the same checks.
  const execWord = args.findIndex((a) => a === 'exec' || a === 'x');
  let j = program === 'npx' ? 1 : program === 'npm' && execWord >= 0 ? execWord + 2 : argv.length;
  while (j < argv.length && argv[j].startsWith('-')) j++;
  const rest = argv.slice(j);
  const innerProgram = rest[0];
  if (innerProgram && SHELLS.has(innerProgram)) return inline(`${program} ${innerProgram}`, rest[1] ?? '');
  if (innerProgram && innerProgram !== program && (innerProgram in LONG_FLAGS || innerProgram in SHORT_FLAGS)) return refuseProgramFlags(rest);
  if (program === 'npm' && args.includes('explore')) return inline(program, 'explore');
  return null;
}

/** Subcommands git knows; anything else in that position is an alias (which can run a shell command). */
const GIT_SUBCOMMANDS = new Set(
  (
    'add am apply archive bisect blame branch bundle cat-file check-ignore checkout cherry cherry-pick clean clone commit ' +
    'count-objects describe diff diff-files diff-index diff-tree fetch for-each-ref format-patch fsck gc grep init log ' +
    'ls-files ls-remote ls-tree merge merge-base mv notes pull push range-diff rebase reflog remote repack restore rev-list ' +
    'rev-parse revert rm shortlog show show-ref sparse-checkout stash status switch tag version whatchanged worktree config'
  ).split(' '),
);
/** Global options (before the subcommand) that are harmless. */
const GIT_SAFE_GLOBALS = new Set(['--no-pager', '-P', '--no-optional-locks', '--literal-pathspecs', '--no-replace-objects', '--version']);
/** Options, anywhere, that name a program for git to run. */
const GIT_EXEC_OPTIONS = ['--upload-pack', '--receive-pack', '--exec', '--extcmd', '--open-files-in-pager', '--tool', '--config-env', '--exec-path'];
/** Subcommand options that run a command (`rebase -x`, `difftool -x`, `grep -O`, `clone -u`). */
const GIT_EXEC_SHORT: Record<string, readonly string[]> = { rebase: ['-x'], clone: ['-u'], 'ls-remote': ['-u'], grep: ['-O'], archive: [] };
/** Subcommands that run commands given as arguments. */
const GIT_RUNS_COMMANDS: Record<string, string> = { bisect: 'run', submodule: 'foreach' };
/** `git config` may read, and set only who commits. */
const GIT_CONFIG_WRITABLE = /^(user\.name|user\.email|init\.defaultbranch)$/i;

function refuseGit(argv: readonly string[]): FlagRefusal | null {
  let i = 1;
  for (; i < argv.length && argv[i].startsWith('-'); i++) {
    const a = argv[i];
    if (a === '-c' || a.startsWith('-c') || a === '--config-env' || a.startsWith('--config-env=')) {
      return {
        reason: 'git_config',
        message: `"git ${a}" sets configuration for one command, which can make git run any program; it is not allowed. Use plain git commands.`,
      };
    }
    if (a === '--exec-path' || a.startsWith('--exec-path=')) {
      return { reason: 'git_exec', message: `"git ${a}" changes where git finds its programs; it is not allowed.` };
    }
    if (a === '-C') {
      i++; // its folder is checked like every path argument: inside the project only
      continue;
    }
    if (!GIT_SAFE_GLOBALS.has(a) && !/^--(git-dir|work-tree)=/.test(a)) {
      return { reason: 'git_config', message: `The git option "${a}" before the subcommand is not allowed; use "git <subcommand> …".` };
    }
  }
  const sub = argv[i];
  if (sub === undefined) return null;
  if (!GIT_SUBCOMMANDS.has(sub)) {
    return {
      reason: 'git_alias',
      message: `"git ${sub}" is not a git command Forge runs (an alias, or a rarely needed command); aliases can run shell commands. Use the git command itself, such as "git status".`,
    };
  }
  const rest = argv.slice(i + 1);
  for (const a of rest) {
    const exec = GIT_EXEC_OPTIONS.find((f) => a === f || a.startsWith(`${f}=`));
    if (exec || GIT_EXEC_SHORT[sub]?.some((f) => a === f || (a.startsWith(f) && a.length > f.length && !a.startsWith('--')))) {
      return { reason: 'git_exec', message: `"git ${sub} ${a}" names a program for git to run; it is not allowed.` };
    }
    if (/^(ext|fd)::/i.test(a)) return { reason: 'git_exec', message: `"${a}" is a git transport that runs a command; use an https or ssh URL.` };
  }
  if (GIT_RUNS_COMMANDS[sub] && rest.includes(GIT_RUNS_COMMANDS[sub])) {
    return { reason: 'git_exec', message: `"git ${sub} ${GIT_RUNS_COMMANDS[sub]}" runs a command given on the command line; it is not allowed.` };
  }
  if (sub === 'config') return refuseGitConfig(rest);
  return null;
}

function refuseGitConfig(rest: readonly string[]): FlagRefusal | null {
  const words = rest.filter((a) => !a.startsWith('-'));
  const reading = rest.some((a) => /^(--get|--get-all|--get-regexp|--list|-l)$/.test(a)) || words.length <= 1;
  if (reading && !rest.some((a) => /^--(add|replace-all|unset|unset-all|rename-section|remove-section|edit|file)\b|^-e$|^-f$/.test(a))) return null;
  if (words.length === 2 && GIT_CONFIG_WRITABLE.test(words[0]) && !rest.some((a) => /^--(file|blob|global|system)\b|^-f$/.test(a))) return null;
  return {
    reason: 'git_config',
    message: `"git config ${rest.join(' ').slice(0, 100)}" changes git's configuration, which can make git run programs (aliases, hooks, pagers); only reading it and setting user.name or user.email are allowed.`,
  };
}
