import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A large plain spec package for the builder bench, written the same way on every run: a PLAN.md
 * with a preamble and 8 phases of 8 tasks, and 16 spec documents of varied prose in docs/ — about
 * 28,000 tokens in all, so its dump is well past the 25,000 tokens the issue measures the ratio on,
 * while each phase window stays the size a real phase has. The prose is drawn from a fixed word list
 * with a seeded generator: repeating one sentence would let BPE count it unrealistically cheaply.
 */

const WORDS =
  'account actor adapter alert archive audit backlog balance batch boundary budget cache calendar channel checksum client column command commit config contract counter cursor dashboard deadline decision default delta device digest document draft entry error event export feature field filter folder format frame gateway handler header history import index invoice journal kernel label ledger limit listing locale lock log mailbox manifest merge metric migration module monitor notice offset order owner packet page parser partition payload permission phase pipeline policy port preview profile queue quota record region release report request retry review role route rule sample schedule schema scope screen search segment sensor session setting signal snapshot source station status storage stream summary table task template tenant thread threshold ticket timer token topic trace tracker transfer trigger upload user value vendor version view volume warning window worker workspace'.split(
    ' ',
  );
const VERBS =
  'accepts builds checks creates deletes emits exports filters groups imports keeps lists loads marks merges reads records rejects renders retries returns saves sends shows sorts stores updates validates writes'.split(
    ' ',
  );
const LINKS = 'when before after unless until while because so that and then or only if for each per'.split(' ');

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function sentence(next: () => number): string {
  const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)]!;
  const parts = [`The ${pick(WORDS)} ${pick(VERBS)} each ${pick(WORDS)}`, pick(LINKS), `the ${pick(WORDS)} ${pick(VERBS)} its ${pick(WORDS)}`];
  if (next() < 0.5) parts.push(`(at most ${Math.floor(next() * 500) + 2} per ${pick(WORDS)})`);
  const s = parts.join(' ');
  return `${s[0]!.toUpperCase()}${s.slice(1)}.`;
}

const paragraph = (next: () => number, n: number) => Array.from({ length: n }, () => sentence(next)).join(' ');

/** Writes the package into `dir` (an empty folder); returns the number of phases. */
export function writeLargePlainPackage(dir: string): number {
  const next = rng(28);
  mkdirSync(join(dir, 'docs'), { recursive: true });
  const topics = WORDS.slice(0, 16);
  for (const [i, topic] of topics.entries()) {
    const sections = Array.from(
      { length: 8 },
      (_, k) => `## ${topic} rule ${k + 1}\n\n${paragraph(next, 10)}\n\n- ${sentence(next)}\n- ${sentence(next)}`,
    ).join('\n\n');
    writeFileSync(join(dir, 'docs', `${String(i + 1).padStart(2, '0')}-${topic}.md`), `# The ${topic} specification\n\n${paragraph(next, 3)}\n\n${sections}\n`);
  }
  const phases = 8;
  const plan = [
    '# Implementation plan — Ledgerline, a team ledger service',
    '',
    'Ledgerline keeps a shared ledger for small teams. The documents in docs/ are the spec; this plan is the order of work.',
    '',
    '## Tech stack',
    '- TypeScript on Node 22, Fastify 5, SQLite through better-sqlite3.',
    '- Tests: vitest; every phase ends with the whole suite green.',
    '',
  ];
  for (let p = 1; p <= phases; p++) {
    plan.push(`## Phase ${p}: ${topics[p - 1]} and ${topics[p]}`, '', paragraph(next, 2), '');
    for (let t = 1; t <= 8; t++) plan.push(`- [ ] ${sentence(next)} See docs/${String(p).padStart(2, '0')}-${topics[p - 1]}.md.`);
    plan.push('');
  }
  writeFileSync(join(dir, 'PLAN.md'), `${plan.join('\n')}\n`);
  return phases;
}
