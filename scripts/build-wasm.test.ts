import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assembleHamming, generatedSource } from './build-wasm';

describe('the committed SIMD scan', () => {
  it('is exactly what src-main/search/scan/hamming.wat assembles to', async () => {
    // If this fails, the .wat was edited without `npx tsx scripts/build-wasm.ts`: the app runs other code than its source says.
    const committed = readFileSync(join(__dirname, '..', 'src-main', 'search', 'scan', 'hamming-wasm.ts'), 'utf8');
    expect(committed).toBe(generatedSource(await assembleHamming()));
  });
});
