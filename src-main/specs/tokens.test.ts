import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSpecPackage } from './read';
import { countSpecTokens } from './tokens';

describe('countSpecTokens', () => {
  it('counts o200k BPE tokens, not characters divided by four', () => {
    // If this failed, every size Forge shows (documents, windows, dumps, the bench ratio) would be an estimate.
    // Values of OpenAI's o200k_base vocabulary; a chars/4 heuristic gives 3, 3, 4, 2 and 250.
    expect(countSpecTokens('hello world')).toBe(2);
    expect(countSpecTokens('Hello, world!')).toBe(4);
    expect(countSpecTokens('Phase 3.1: Setup')).toBe(7);
    expect(countSpecTokens('日本語のテキスト')).toBe(6);
    expect(countSpecTokens('x'.repeat(1000))).toBe(125);
    expect(countSpecTokens('')).toBe(0);
  });

  it('the larger plain example dumps to more than 25,000 tokens, for the dump-versus-fixed ratio', () => {
    // If this failed, the bench could not show the ≥ 5× ratio on a package big enough to matter.
    const pkg = readSpecPackage(join(__dirname, '..', '..', 'resources', 'examples', 'specs', 'plain-large'));
    const dump = pkg.documents.reduce((n, d) => n + d.tokens, 0);
    expect(dump).toBeGreaterThan(25_000);
    expect(pkg.phases.map((p) => p.id)).toEqual(['1', '2', '3', '4', '5']);
    expect(pkg.notUnderstood).toEqual([]);
  });
});
