import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { countToolTokens } from '../../llm/tokens';
import { runTool, toModelTool } from '../../tools/define';
import { DEFAULT_ALLOWED_COMMANDS } from './argv';
import type { TestRun } from './test-runs';
import { PROJECT_TOOLS, type ProjectToolContext } from './tools';
import { tempProject } from './testing';

function context(workDir: string, runs: TestRun[] = []): ProjectToolContext {
  return { workDir, allowedCommands: DEFAULT_ALLOWED_COMMANDS, onTestRun: (r) => runs.push(r) };
}

describe('PROJECT_TOOLS', () => {
  it('are the eight tools the builder prompt names', () => {
    expect(PROJECT_TOOLS.map((t) => t.name)).toEqual([
      'read_file',
      'list_directory',
      'search_code',
      'write_file',
      'edit_file',
      'run_tests',
      'check_syntax',
      'run_command',
    ]);
  });

  it('stay small enough for the builder’s 5,000-token fixed context', () => {
    const tokens = PROJECT_TOOLS.reduce((n, t) => n + countToolTokens(toModelTool(t)), 0);
    // The eight project tools may take at most a fifth of the budget: the prompt and forge tools need the rest.
    expect(tokens).toBeLessThan(1000);
  });

  it('turn a sandbox escape into an error result the model reads, and touch nothing outside', async () => {
    const outside = tempProject({ 'x.txt': 'keep' });
    const root = tempProject({ 'a.txt': 'a' });
    fs.symlinkSync(outside, path.join(root, 'out'));
    const ctx = context(root);
    const read = await runTool(PROJECT_TOOLS, 'read_file', { path: '../x.txt' }, ctx);
    expect(read.isError).toBe(true);
    expect(read.content).toMatch(/^read_file failed \[forbidden\]: "\.\.\/x\.txt" climbs out of the project folder/);
    const write = await runTool(PROJECT_TOOLS, 'write_file', { path: 'out/x.txt', content: 'overwritten' }, ctx);
    expect(write.isError).toBe(true);
    expect(write.content).toMatch(/symbolic link/);
    expect(fs.readFileSync(path.join(outside, 'x.txt'), 'utf8')).toBe('keep');
    const forge = await runTool(PROJECT_TOOLS, 'write_file', { path: 'Forge/Contracts/blueprint.md', content: 'x' }, ctx);
    expect(forge.content).toMatch(/read-only to the builder: read contracts with the forge tools/);
    expect(fs.existsSync(path.join(root, 'Forge'))).toBe(false);
  });

  it('write, edit, read and check a file end to end', async () => {
    const root = tempProject();
    const ctx = context(root);
    expect((await runTool(PROJECT_TOOLS, 'write_file', { path: 'src/add.ts', content: 'export const add = (a, b) => a - b;\n' }, ctx)).content).toBe(
      'Wrote src/add.ts (new file, 1 lines).',
    );
    const edited = await runTool(PROJECT_TOOLS, 'edit_file', { path: 'src/add.ts', edits: [{ old_text: 'a - b', new_text: 'a + b' }] }, ctx);
    expect(edited.content).toBe('Edited src/add.ts: 1 edit applied; it now has 1 lines.');
    expect((await runTool(PROJECT_TOOLS, 'read_file', { path: 'src/add.ts' }, ctx)).content).toBe('export const add = (a, b) => a + b;');
    expect((await runTool(PROJECT_TOOLS, 'check_syntax', { file_path: 'src/add.ts' }, ctx)).content).toBe('src/add.ts: no syntax errors (TypeScript).');
    expect((await runTool(PROJECT_TOOLS, 'search_code', { pattern: 'a \\+ b', glob: 'src/**/*.ts' }, ctx)).content).toBe(
      'src/add.ts:1: export const add = (a, b) => a + b;',
    );
  });

  it('run_tests reports every run to the build, and run_command marks a failing exit as an error', async () => {
    const root = tempProject({ 'a.test.js': "require('node:test')('ok', () => {});\n", 'fail.js': 'process.exit(2)' });
    const runs: TestRun[] = [];
    const ctx = context(root, runs);
    const tests = await runTool(PROJECT_TOOLS, 'run_tests', { command: 'node --test', timeout: 60 }, ctx);
    expect(tests.content).toMatch(/^PASSED \(exit code 0/);
    expect(runs.map((r) => [r.command, r.passed])).toEqual([['node --test', true]]);
    const failing = await runTool(PROJECT_TOOLS, 'run_command', { command: 'node fail.js' }, ctx);
    expect(failing.isError).toBe(true);
    expect(failing.content).toMatch(/exit code 2/);
    const refused = await runTool(PROJECT_TOOLS, 'run_command', { command: 'npm test | tee log' }, ctx);
    // Code on the command line is refused too: an injected "node -e …" cannot run.
    const inline = await runTool(PROJECT_TOOLS, 'run_command', { command: `node -e "require('child_process').exec('id')"` }, ctx);
    expect(inline.content).toMatch(/runs code written on the command line/);
    expect(refused.content).toMatch(/^run_command failed \[forbidden\]: The command contains "\|"/);
  });

  it('reject a bad argument with the field to fix', async () => {
    const r = await runTool(PROJECT_TOOLS, 'edit_file', { path: 'a.ts', edits: [] }, context(tempProject()));
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/^Invalid arguments for edit_file: edits:/);
  });
});
