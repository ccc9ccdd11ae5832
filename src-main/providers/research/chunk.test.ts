import { describe, expect, it } from 'vitest';
import { chunkNote, chunkText, MAX_WORDS, MIN_WORDS, markdownUnits } from './chunk';

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;
/** A paragraph of `n` words made of numbered sentences of 10 words, so every cut is checkable. */
const paragraph = (tag: string, n: number) =>
  Array.from({ length: n / 10 }, (_, i) => `${tag}${i} alpha beta gamma delta epsilon zeta eta theta iota.`).join(' ');

describe('chunking notes into passages', () => {
  it('keeps paragraphs whole and passages between 120 and 250 words (a citation must point at readable text)', () => {
    const paras = Array.from({ length: 12 }, (_, i) => paragraph(`p${i}s`, 50));
    const passages = chunkText(paras.join('\n\n'));
    expect(passages.length).toBeGreaterThan(2);
    for (const p of passages) {
      expect(words(p)).toBeGreaterThanOrEqual(MIN_WORDS);
      expect(words(p)).toBeLessThanOrEqual(MAX_WORDS);
    }
    // Every paragraph appears intact in exactly one passage, in order.
    for (const para of paras) expect(passages.filter((p) => p.includes(para))).toHaveLength(1);
    expect(passages.join('\n\n')).toBe(paras.join('\n\n'));
  });

  it('cuts a long paragraph between sentences, never mid-sentence', () => {
    const long = paragraph('s', 600);
    const passages = chunkText(long);
    expect(passages.length).toBeGreaterThanOrEqual(3);
    for (const p of passages) {
      expect(words(p)).toBeLessThanOrEqual(MAX_WORDS);
      expect(p.endsWith('iota.')).toBe(true);
    }
    expect(passages.join(' ')).toBe(long);
  });

  it('folds a short tail into the passage before it instead of leaving a fragment', () => {
    const passages = chunkText([paragraph('a', 130), paragraph('b', 20)].join('\n\n'));
    expect(passages).toHaveLength(1);
    expect(words(passages[0]!)).toBe(150);
  });

  it('cuts markdown at headings, ignoring # inside fenced code, and numbers passages through the note', () => {
    const md = [
      'Preamble line.',
      '',
      '## Rates outlook',
      'The ECB cuts twice.',
      '',
      '```',
      '# not a heading',
      '```',
      '',
      '### FX *view*',
      'EURUSD higher.',
    ].join('\n');
    const units = markdownUnits(md);
    expect(units.map((u) => u.section)).toEqual(['', 'Rates outlook', 'FX view']);
    expect(units[1]!.text).toContain('# not a heading');
    const passages = chunkNote(units);
    expect(passages.map((p) => [p.ordinal, p.section])).toEqual([
      [1, ''],
      [2, 'Rates outlook'],
      [3, 'FX view'],
    ]);
  });
});
