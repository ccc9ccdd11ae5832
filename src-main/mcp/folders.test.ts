import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { dirOfRoot } from './folders';

/**
 * A root is whatever the client says it is: only a file:// URL naming a folder on this machine is
 * taken. Failing, a root naming a network share or a web address would be read (or crash the call)
 * instead of being refused with a sentence that says what to do.
 */

const dir = mkdtempSync(join(tmpdir(), 'forge-root-'));
writeFileSync(join(dir, 'README.md'), '# x\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('client roots', () => {
  it('takes a file:// URL naming a folder here, percent-encoding and all', () => {
    const spaced = mkdtempSync(join(dir, 'my project '));
    expect(dirOfRoot(pathToFileURL(dir).href)).toBe(dir);
    expect(dirOfRoot(pathToFileURL(spaced).href)).toBe(spaced);
  });

  it('refuses anything else with a sentence naming the root', () => {
    expect(() => dirOfRoot('https://github.com/acme/repo')).toThrow(/^The root https:\/\/github\.com\/acme\/repo is not a file:\/\/ URL/);
    expect(() => dirOfRoot('file://fileserver/share/repo')).toThrow(/names another machine/);
    expect(() => dirOfRoot('repo')).toThrow(/^The root "repo" is not a URL/);
    expect(() => dirOfRoot(pathToFileURL(join(dir, 'README.md')).href)).toThrow(/is a file, not a folder/);
    expect(() => dirOfRoot(pathToFileURL(join(dir, 'gone')).href)).toThrow(/does not exist on this machine/);
  });
});
