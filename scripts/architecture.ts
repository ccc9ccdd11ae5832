import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BoundaryRules } from './boundaries';

/**
 * docs/ARCHITECTURE.md's layer diagram and table, generated from contracts/boundaries.json — the
 * rules `scripts/boundaries.ts` enforces — so the document cannot describe layers the code does not
 * have. `npx tsx scripts/architecture.ts --write` rewrites the block between the markers;
 * scripts/architecture.test.ts fails when the block and the rules disagree.
 */

export const BEGIN = '<!-- layers:begin (generated from contracts/boundaries.json by scripts/architecture.ts; do not edit) -->';
export const END = '<!-- layers:end -->';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The edges worth drawing: A → B when A may import B and B is not already reachable through another
 * module A may import (a transitive reduction), so the diagram shows the layering, not a hairball.
 */
export function reducedEdges(rules: BoundaryRules): [string, string][] {
  const may = new Map(Object.entries(rules.modules).map(([name, m]) => [name, new Set([...m.mayImport, ...(m.typeOnly ?? [])])]));
  const reach = (from: string, seen = new Set<string>()): Set<string> => {
    for (const next of may.get(from) ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        reach(next, seen);
      }
    }
    return seen;
  };
  const edges: [string, string][] = [];
  for (const [from, targets] of may) {
    for (const to of targets) {
      const viaOther = [...targets].some((mid) => mid !== to && reach(mid).has(to));
      if (!viaOther) edges.push([from, to]);
    }
  }
  return edges.sort((a, b) => a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]));
}

export function layersBlock(rules: BoundaryRules): string {
  const lines = [BEGIN, '', '```mermaid', 'flowchart TD'];
  for (const [from, to] of reducedEdges(rules)) lines.push(`  ${from} --> ${to}`);
  lines.push('```', '', '| module | folder | may import |', '|---|---|---|');
  for (const [name, m] of Object.entries(rules.modules)) {
    const may = m.mayImport.length ? m.mayImport.map((x) => `\`${x}\``).join(', ') : '(nothing of ours)';
    const typeOnly = m.typeOnly?.length ? `; types only from ${m.typeOnly.map((x) => `\`${x}\``).join(', ')}` : '';
    lines.push(`| \`${name}\` | \`${m.path}/\` | ${may}${typeOnly} |`);
  }
  for (const [pkg, p] of Object.entries(rules.packages)) {
    lines.push('', `The package \`${pkg}\` may be imported only in ${p.onlyIn.map((x) => `\`${x}\``).join(' and ')}${p.why ? `: ${p.why}` : ''}.`);
  }
  if (rules.noNodeBuiltins.length)
    lines.push('', `No Node built-ins in ${rules.noNodeBuiltins.map((x) => `\`${x}\``).join(' or ')} (both run in the renderer too).`);
  lines.push('', END);
  return lines.join('\n');
}

export function readRules(): BoundaryRules {
  return JSON.parse(readFileSync(join(root, 'contracts', 'boundaries.json'), 'utf8')) as BoundaryRules;
}

/** The document with its generated block replaced; throws when the markers are missing. */
export function withLayers(doc: string, rules: BoundaryRules): string {
  const a = doc.indexOf(BEGIN);
  const b = doc.indexOf(END);
  if (a < 0 || b < a) throw new Error(`docs/ARCHITECTURE.md has no generated layers block (${BEGIN} … ${END}).`);
  return doc.slice(0, a) + layersBlock(rules) + doc.slice(b + END.length);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = join(root, 'docs', 'ARCHITECTURE.md');
  const doc = readFileSync(file, 'utf8');
  const next = withLayers(doc, readRules());
  if (process.argv.includes('--write')) {
    writeFileSync(file, next);
    console.log(next === doc ? 'docs/ARCHITECTURE.md: layers already in step' : 'docs/ARCHITECTURE.md: layers regenerated');
  } else {
    process.stdout.write(`${layersBlock(readRules())}\n`);
  }
}
