import { describe, expect, it } from 'vitest';
import { languageOf, markersOf, problemsSummary, saveBlock, storedScope, storeScope } from './model';

describe('Contracts screen model', () => {
  it('turns a problem into a red squiggle at its line and column, naming the path of a schema problem', () => {
    const [m] = markersOf([{ line: 4, column: 3, endLine: 4, endColumn: 9, path: 'modules.api.mayImport', message: 'Required', severity: 'error' }]);
    expect(m).toEqual({
      startLineNumber: 4,
      startColumn: 3,
      endLineNumber: 4,
      endColumn: 9,
      message: 'modules.api.mayImport: Required',
      severity: 8,
      source: 'Forge contracts',
    });
    expect(markersOf([{ line: 1, column: 1, endLine: 1, endColumn: 2, path: '(syntax)', message: 'YAML syntax: x', severity: 'warning' }])[0]).toMatchObject({
      message: 'YAML syntax: x',
      severity: 4,
    });
  });

  it('keeps Save off while the text is unchanged, unchecked, invalid or saving (a PM could save a broken contract otherwise)', () => {
    const base = { dirty: true, checkedText: 'a', text: 'a', errors: 0, saving: false };
    expect(saveBlock(base)).toBeNull();
    expect(saveBlock({ ...base, dirty: false })).toBe('unchanged');
    expect(saveBlock({ ...base, checkedText: 'old' })).toBe('checking');
    expect(saveBlock({ ...base, errors: 1 })).toBe('invalid');
    expect(saveBlock({ ...base, saving: true })).toBe('saving');
  });

  it('picks the editor grammar by kind and words the problem count', () => {
    expect([languageOf('yaml'), languageOf('json'), languageOf('md')]).toEqual(['yaml', 'javascript', 'markdown']);
    expect(problemsSummary([])).toBe('No problems');
    expect(
      problemsSummary([
        { line: 1, column: 1, endLine: 1, endColumn: 2, path: 'a', message: 'x', severity: 'error' },
        { line: 1, column: 1, endLine: 1, endColumn: 2, path: 'a', message: 'x', severity: 'warning' },
      ]),
    ).toBe('1 error, 1 warning');
  });

  it('remembers the open project for the session, so a reload returns to it', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    };
    storeScope({ projectPath: '/work/p' }, storage);
    expect(storedScope(storage)).toEqual({ projectPath: '/work/p' });
    storeScope({}, storage);
    expect(storedScope(storage)).toEqual({});
  });
});
