import { describe, expect, it } from 'vitest';
import { screens } from '../app/routes';
import { baseCommands, detectRecordId, filterCommands, fuzzyScore, isTypingTarget } from './commands';

const labels = (q: string) => filterCommands(q).map((c) => c.label);

describe('jump to a record by id', () => {
  it('opens an Expression or a View on its full record page (a bare id in the route, not the pane’s file name)', () => {
    expect(detectRecordId('E-004')).toMatchObject({ id: 'E-004', screen: 'expressions', rest: ['E-004'], label: 'Open E-004' });
    expect(detectRecordId('V-001')).toMatchObject({ id: 'V-001', screen: 'views', rest: ['V-001'] });
  });

  it('forgives how the PM types it: lower case, no dash, no leading zeros', () => {
    expect(detectRecordId('e4')?.id).toBe('E-004');
    expect(detectRecordId(' sep-1 ')?.id).toBe('SEP-001');
    expect(detectRecordId('PK 3')?.id).toBe('PK-003');
    expect(detectRecordId('cf-0012')?.id).toBe('CF-012');
    expect(detectRecordId('E-1234')?.id).toBe('E-1234');
  });

  it('routes proposals to the Proposals screen and other records to the memory pane by full path', () => {
    expect(detectRecordId('SEP-001')).toMatchObject({ screen: 'proposals', rest: ['SEP-001'] });
    expect(detectRecordId('PK-003')).toMatchObject({ screen: 'views', rest: ['/memory/pk/PK-003.md'] });
    expect(detectRecordId('OUT-002')).toMatchObject({ screen: 'views', rest: ['/memory/outcomes/OUT-002.md'] });
    expect(detectRecordId('CF-001')).toMatchObject({ screen: 'views', rest: ['/memory/counterfactuals/CF-001.md'] });
  });

  it('does not take words or unknown prefixes for ids', () => {
    for (const text of ['E-', 'views', 'X-001', 'E-00a', 'E--1', '', 'build 4']) expect(detectRecordId(text), text).toBeNull();
  });

  it('lists the typed id first, above any command whose letters happen to match', () => {
    expect(filterCommands('E-004')[0]).toMatchObject({ kind: 'record', id: 'E-004' });
    expect(filterCommands('v1')[0]).toMatchObject({ kind: 'record', id: 'V-001' });
  });
});

describe('matching what the PM types', () => {
  it('offers every screen and the main actions when nothing is typed', () => {
    const all = filterCommands('');
    expect(all.filter((c) => c.kind === 'screen').map((c) => (c.kind === 'screen' ? c.screen : ''))).toEqual([...screens]);
    expect(all.map((c) => c.label)).toEqual(expect.arrayContaining(['New chat', 'Run the demo', 'Search memory', 'Approve next proposal', 'Start a build']));
  });

  it('finds a screen by a few of its letters, the closest fit first', () => {
    expect(labels('expr')[0]).toBe('Go to Expressions');
    expect(labels('cal')[0]).toBe('Go to Calibration');
    expect(labels('demo')[0]).toBe('Run the demo');
    expect(labels('gtset')[0]).toBe('Go to Settings');
  });

  it('prefers letters at word starts and in a row over scattered ones', () => {
    expect(fuzzyScore('sb', 'Start a build')!).toBeGreaterThan(fuzzyScore('sb', 'Jobs bar')!);
    expect(fuzzyScore('new', 'New chat')!).toBeGreaterThan(fuzzyScore('new', 'Run the demo with new stuff')!);
  });

  it('drops commands whose label lacks a letter, unless the description has every word', () => {
    expect(fuzzyScore('zzz', 'Go to Views')).toBeNull();
    expect(labels('qqqq')).toEqual([]);
    // "conversation" is not in "New chat", but the action's description says it.
    expect(labels('conversation')).toContain('New chat');
  });

  it('gives each command a distinct key, so the list never mixes two rows', () => {
    const keys = baseCommands().map((c) => c.key);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('where shortcuts stay out of the way', () => {
  const el = (tagName: string, opts: { editable?: boolean; inMonaco?: boolean } = {}) => ({
    tagName,
    isContentEditable: opts.editable ?? false,
    closest: (sel: string) => (sel === '.monaco-editor' && opts.inMonaco ? {} : null),
  });

  it('treats inputs, text areas, editable regions and Monaco as typing', () => {
    expect(isTypingTarget(el('INPUT'))).toBe(true);
    expect(isTypingTarget(el('textarea'))).toBe(true);
    expect(isTypingTarget(el('DIV', { editable: true }))).toBe(true);
    // Monaco's hidden textarea sits inside .monaco-editor; a plain div there counts too.
    expect(isTypingTarget(el('DIV', { inMonaco: true }))).toBe(true);
  });

  it('lets ? open the help from a button or the page', () => {
    expect(isTypingTarget(el('BUTTON'))).toBe(false);
    expect(isTypingTarget(el('BODY'))).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});
