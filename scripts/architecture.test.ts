import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BEGIN, END, layersBlock, readRules, reducedEdges } from './architecture';
import type { BoundaryRules } from './boundaries';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const doc = readFileSync(join(root, 'docs', 'ARCHITECTURE.md'), 'utf8');
const rules = readRules();

describe('docs/ARCHITECTURE.md and the enforced layer rules', () => {
  it('carries the layer diagram and table generated from contracts/boundaries.json', () => {
    // A reader would otherwise learn layers the boundary check does not enforce.
    const block = doc.slice(doc.indexOf(BEGIN), doc.indexOf(END) + END.length);
    expect(block, 'run `npx tsx scripts/architecture.ts --write`').toBe(layersBlock(rules));
  });

  it('describes every module folder the rules list', () => {
    for (const m of Object.values(rules.modules)) {
      const folder = m.path.replace(/^src-main\//, '');
      expect(doc, m.path).toMatch(new RegExp(`^\\s*${folder.replace(/[-/]/g, (c) => `\\${c}`)}/\\s+\\S`, 'm'));
    }
  });

  it('is the document the rules cite', () => {
    const comment = (rules as unknown as { $comment: string }).$comment;
    expect(comment).toContain('docs/ARCHITECTURE.md');
    expect(doc).toMatch(/^## Layering$/m);
  });
});

describe('the diagram draws the layering, not every permission', () => {
  it('leaves out an arrow another path already implies', () => {
    const r: BoundaryRules = {
      modules: { a: { path: 'a', mayImport: ['b', 'c'] }, b: { path: 'b', mayImport: ['c'] }, c: { path: 'c', mayImport: [] } },
      packages: {},
      noNodeBuiltins: [],
      sourceRoots: [],
    };
    expect(reducedEdges(r)).toEqual([
      ['a', 'b'],
      ['b', 'c'],
    ]);
  });
});
