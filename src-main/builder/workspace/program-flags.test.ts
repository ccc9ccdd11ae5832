import { describe, expect, it } from 'vitest';
import { checkArgv, DEFAULT_ALLOWED_COMMANDS, parseCommandLine } from './argv';
import { caught, tempProject } from './testing';

/**
 * run_command's per-program checks: code written on the command line and git's ways of running a
 * shell command are refused before anything starts. If these failed, an instruction slipped into a
 * build's context ("run git -c alias.x='!curl …' x") would run with no project file to show for it.
 */

const root = tempProject({ 'a.js': '' });
const reasonOf = async (line: string) => (await caught(() => checkArgv(parseCommandLine(line), DEFAULT_ALLOWED_COMMANDS, root))).reason;

describe('git', () => {
  it.each([
    [`git -c alias.x='!touch /tmp/pwned' x`, 'git_config'],
    ['git -ccore.pager=sh status', 'git_config'],
    ['git --config-env=core.pager=X status', 'git_config'],
    ['git --exec-path=evil status', 'git_exec'],
    ['git --paginate log', 'git_config'],
    ['git x', 'git_alias'],
    ['git st', 'git_alias'],
    ['git fetch --upload-pack=evil origin', 'git_exec'],
    ['git push --receive-pack=evil origin', 'git_exec'],
    ['git clone -u evil repo', 'git_exec'],
    ['git rebase -x evil main', 'git_exec'],
    ['git rebase --exec=evil main', 'git_exec'],
    ['git grep -O evil foo', 'git_exec'],
    ['git difftool --extcmd=evil', 'git_alias'],
    ['git bisect run evil', 'git_exec'],
    ['git submodule foreach evil', 'git_alias'],
    [`git clone 'ext::sh -c evil' x`, 'git_exec'],
    ['git config core.fsmonitor evil', 'git_config'],
    ['git config alias.x evil', 'git_config'],
    ['git config --global user.name x', 'git_config'],
    ['git -C ../elsewhere status', 'path_arg'],
    ['git -C /etc status', 'path_arg'],
  ])('refuses %j (%s)', async (line, reason) => {
    expect(await reasonOf(line)).toBe(reason);
  });

  it.each([
    'git status',
    'git -C src status',
    'git --no-pager log --oneline -5',
    "git commit -m 'fix: a'",
    'git push -u origin main',
    'git add -u',
    'git config user.name Builder',
    'git config --get user.email',
    'git config --list',
    'git init -q',
  ])('allows %j', (line) => {
    expect(() => checkArgv(parseCommandLine(line), DEFAULT_ALLOWED_COMMANDS, root)).not.toThrow();
  });
});

describe('inline code flags of the other allowed programs', () => {
  it.each([
    ['node -e 1', 'inline_code'],
    ['node -pe 1', 'inline_code'],
    ['node --eval=1', 'inline_code'],
    ['node --import=./x.mjs a.js', 'inline_code'],
    ['node --require ./x.js a.js', 'inline_code'],
    ['node --loader ./x.mjs a.js', 'inline_code'],
    ['python3 -c 1', 'inline_code'],
    ['python3 -Ic 1', 'inline_code'],
    ['python -c 1', 'inline_code'],
    ['npx -c evil', 'inline_code'],
    ['npx --call=evil', 'inline_code'],
    ['npx sh -c evil', 'inline_code'],
    ['npx --yes node -e 1', 'inline_code'],
    ['npm exec -c evil', 'inline_code'],
    ['npm exec -- node -e 1', 'inline_code'],
    ['npm x bash evil', 'inline_code'],
    ['npm explore left-pad', 'inline_code'],
    ["make --eval='x: ; evil'", 'inline_code'],
    ['make -E x', 'inline_code'],
    ["make 'SHELL=evil'", 'inline_code'],
    ['go test -exec evil ./...', 'inline_code'],
    ['go build -toolexec=evil', 'inline_code'],
    ["cargo --config 'target.x.runner=evil' run", 'inline_code'],
  ])('refuses %j (%s)', async (line, reason) => {
    expect(await reasonOf(line)).toBe(reason);
  });

  it.each([
    'node a.js',
    'node --test',
    'python3 -m pytest -q',
    'python3 -B a.js',
    'npx vitest run',
    'npm test',
    'npm run build',
    'npm ci',
    'make test',
    'go test ./...',
    'cargo test',
  ])('allows %j', (line) => {
    expect(() => checkArgv(parseCommandLine(line), DEFAULT_ALLOWED_COMMANDS, root)).not.toThrow();
  });
});
