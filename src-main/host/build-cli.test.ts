import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { forgeBuildCli } from './build-cli';

/** `forge build` from a terminal: what a developer sees when the command cannot start a build. */
let dir: string;
let errors: string[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'forge-build-cli-'));
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => {
    errors.push(a.join(' '));
  });
  vi.spyOn(console, 'log').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

describe('forge build', () => {
  it('explains its usage when no folder is given, and refuses an unknown mode', async () => {
    expect(await forgeBuildCli([])).toBe(2);
    expect(errors.join('\n')).toMatch(/give one project folder/);
    expect(await forgeBuildCli([dir, '--mode', 'fast'])).toBe(2);
    expect(errors.join('\n')).toMatch(/--mode is mcp or dump/);
  });

  it('says what is missing instead of starting: the spec package first, then the API key', async () => {
    const data = join(dir, 'data');
    const empty = join(dir, 'project');
    mkdirSync(empty);
    const project = join(dir, 'plain');
    cpSync(fileURLToPath(new URL('../../resources/examples/specs/plain', import.meta.url)), project, { recursive: true });
    const key = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = '';
    try {
      // A folder with nothing to build is named before the key: adding a key would not help.
      expect(await forgeBuildCli([empty, '--data', data])).toBe(1);
      expect(errors.join('\n')).toMatch(/No spec package/);
      expect(errors.join('\n')).not.toMatch(/API key/i);
      errors.length = 0;
      // A real package without a key: the key is what is missing.
      expect(await forgeBuildCli([project, '--data', data])).toBe(1);
      expect(errors.join('\n')).toMatch(/API key/i);
    } finally {
      if (key === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = key;
    }
  });
});
