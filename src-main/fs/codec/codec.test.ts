import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../common/errors';
import { extractHeader, extractSummary, countLines } from './depth';
import { parseRecord, renderRecord, type MemoryDocument } from './record';

const VIEW = `# V-001 — Fed cuts twice more before the ECB moves again
status: active
confidence: 0.7
scope: US rates
category: macro_regime
horizon: 2027-03-31
expressions: [E-001, E-002]
source: demo
---
## SUMMARY
Softening labour data gives the Fed room.

## SCENARIOS
- Base (60%): two cuts.
`;

describe('record codec', () => {
  it('reads a View back exactly as it was written (canonical round trip)', () => {
    const doc = parseRecord(VIEW);
    expect(renderRecord(doc)).toBe(VIEW);
  });

  it('gives lists and numbers their types, so linked Expressions and confidence are usable', () => {
    const doc = parseRecord(VIEW);
    expect(doc.id).toBe('V-001');
    expect(doc.title).toBe('Fed cuts twice more before the ECB moves again');
    expect(doc.header.confidence).toBe(0.7);
    expect(doc.header.expressions).toEqual(['E-001', 'E-002']);
    expect(doc.header.horizon).toBe('2027-03-31');
    expect(doc.body!.startsWith('## SUMMARY\n')).toBe(true);
  });

  it('keeps "0.70" as written instead of silently changing it to 0.7', () => {
    const text = '# V-002 — x\nconfidence: 0.70\n';
    expect(parseRecord(text).header.confidence).toBe('0.70');
    expect(renderRecord(parseRecord(text))).toBe(text);
  });

  it('accepts short records without a body (an auto-recorded Counterfactual) and keeps them exact', () => {
    const cf = '# CF-001\ndecision_type: rejected_expression\nexpression: E-004\nstatus: tracking\n';
    const doc = parseRecord(cf);
    expect(doc.body).toBeNull();
    expect(doc.title).toBe('');
    expect(renderRecord(doc)).toBe(cf);
  });

  it('names the line of a malformed record instead of storing half of it', () => {
    expect(() => parseRecord('# V-001 — t\nstatus: active\nthis line has no colon\n---\nbody')).toThrow(/Line 3/);
    expect(() => parseRecord('V-001 — no heading')).toThrow(/Line 1/);
    expect(() => parseRecord('# V-001 — t\nstatus: a\nstatus: b\n')).toThrow(/Line 3.*twice/);
    expect(() => parseRecord('# bad id! — t\n')).toThrow(InvalidInputError);
  });

  it('refuses to render a value that could not be read back as itself', () => {
    const doc: MemoryDocument = { id: 'V-1', title: 't', header: { tags: ['a,b'] }, body: null };
    expect(() => renderRecord(doc)).toThrow(InvalidInputError);
    expect(() => renderRecord({ ...doc, header: { note: 'two\nlines' } })).toThrow(InvalidInputError);
  });

  it('header depth shows the first 8 lines and says how many more a full read has', () => {
    const header = extractHeader(VIEW);
    const lines = header.split('\n');
    expect(lines).toHaveLength(9);
    expect(lines[7]).toBe('source: demo');
    expect(lines[8]).toBe(`[${countLines(VIEW) - 8} more lines — depth='full' to read]`);
  });

  it('summary depth adds the SUMMARY section and nothing after it', () => {
    const s = extractSummary(VIEW);
    expect(s).toContain('## SUMMARY\nSoftening labour data gives the Fed room.');
    expect(s).not.toContain('SCENARIOS');
  });
});

const keyArb = fc.stringMatching(/^[a-z_][a-z0-9_]{0,12}$/).filter((k) => !k.startsWith('__'));
const scalarArb = fc.oneof(
  // Text that does not look like a number (a numeric-looking string reads back as a number).
  fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 .:_/-]{0,20}[A-Za-z0-9]$/).filter((s) => !/^-?(0|[1-9]\d*)(\.\d+)?$/.test(s)),
  fc.integer({ min: -1e6, max: 1e6 }),
  fc.double({ min: 0, max: 1, noNaN: true }).map((x) => Math.round(x * 100) / 100),
);
const listItemArb = fc.oneof(fc.stringMatching(/^[A-Z]{1,3}-\d{3}$/), fc.integer({ min: 0, max: 999 }));

const docArb = fc.record({
  id: fc.stringMatching(/^[A-Z]{1,3}-\d{1,4}$/),
  title: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ,'()-]{0,40}[A-Za-z0-9)]$/),
  header: fc.dictionary(keyArb, fc.oneof(scalarArb, fc.array(listItemArb, { maxLength: 4 })), { maxKeys: 8 }),
  body: fc.option(fc.string({ maxLength: 200 }), { nil: null }),
});

describe('record codec fuzz', () => {
  it('any record it renders reads back identically (10,000 cases)', () => {
    fc.assert(
      fc.property(docArb, (doc) => {
        const text = renderRecord(doc);
        const back = parseRecord(text);
        expect(back).toEqual(doc);
        expect(renderRecord(back)).toBe(text);
      }),
      { numRuns: 10_000 },
    );
  });

  it('arbitrary text either parses to a stable canonical form or is refused with InvalidInputError (10,000 cases)', () => {
    const textArb = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc
        .array(fc.oneof(fc.constantFrom('# V-001 — t', '---', 'status: active', 'x: [a, b]', '', 'k:', ': v', '# ', 'a b'), fc.string({ maxLength: 20 })), {
          maxLength: 12,
        })
        .map((ls) => ls.join('\n')),
    );
    fc.assert(
      fc.property(textArb, (text) => {
        let doc: MemoryDocument;
        try {
          doc = parseRecord(text);
        } catch (e) {
          expect(e).toBeInstanceOf(InvalidInputError);
          return;
        }
        const canonical = renderRecord(doc);
        expect(renderRecord(parseRecord(canonical))).toBe(canonical);
      }),
      { numRuns: 10_000 },
    );
  });
});
