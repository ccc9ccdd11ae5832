import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown, safeHref } from './parse';

describe('markdown parser for memory records', () => {
  it('reads headings, paragraphs and line breaks so a View body keeps its sections', () => {
    const blocks = parseMarkdown('## SUMMARY\nGrowth is slowing.\nConsumer weak.\n\n## SCENARIOS');
    expect(blocks).toEqual([
      { type: 'heading', level: 2, children: [{ type: 'text', text: 'SUMMARY' }] },
      {
        type: 'paragraph',
        children: [{ type: 'text', text: 'Growth is slowing.' }, { type: 'br' }, { type: 'text', text: 'Consumer weak.' }],
      },
      { type: 'heading', level: 2, children: [{ type: 'text', text: 'SCENARIOS' }] },
    ]);
  });

  it('reads bold, italic, inline code and strikethrough inside text', () => {
    expect(parseInline('**Base** case *55%* with `UST 10y` ~~old~~')).toEqual([
      { type: 'strong', children: [{ type: 'text', text: 'Base' }] },
      { type: 'text', text: ' case ' },
      { type: 'em', children: [{ type: 'text', text: '55%' }] },
      { type: 'text', text: ' with ' },
      { type: 'code', text: 'UST 10y' },
      { type: 'text', text: ' ' },
      { type: 'del', children: [{ type: 'text', text: 'old' }] },
    ]);
  });

  it('leaves snake_case names and lone asterisks as plain text (file names must not turn italic)', () => {
    expect(parseInline('see macro_regime_notes.md and 2 * 3')).toEqual([{ type: 'text', text: 'see macro_regime_notes.md and 2 * 3' }]);
  });

  it('nests italic inside bold and bold inside italic', () => {
    expect(parseInline('*a **b** c*')).toEqual([
      {
        type: 'em',
        children: [
          { type: 'text', text: 'a ' },
          { type: 'strong', children: [{ type: 'text', text: 'b' }] },
          { type: 'text', text: ' c' },
        ],
      },
    ]);
  });

  it('reads bullet and numbered lists, including nested items and continuation lines', () => {
    const blocks = parseMarkdown('- Bull: growth\n  re-accelerates\n  - sub point\n- Bear: recession\n\n3. third\n4. fourth');
    expect(blocks).toEqual([
      {
        type: 'list',
        ordered: false,
        start: 1,
        items: [
          [
            {
              type: 'paragraph',
              children: [{ type: 'text', text: 'Bull: growth' }, { type: 'br' }, { type: 'text', text: 're-accelerates' }],
            },
            { type: 'list', ordered: false, start: 1, items: [[{ type: 'paragraph', children: [{ type: 'text', text: 'sub point' }] }]] },
          ],
          [{ type: 'paragraph', children: [{ type: 'text', text: 'Bear: recession' }] }],
        ],
      },
      {
        type: 'list',
        ordered: true,
        start: 3,
        items: [[{ type: 'paragraph', children: [{ type: 'text', text: 'third' }] }], [{ type: 'paragraph', children: [{ type: 'text', text: 'fourth' }] }]],
      },
    ]);
  });

  it('keeps fenced code verbatim, markdown characters included', () => {
    expect(parseMarkdown('```python\nx = a * b  # **not bold**\n```\nafter')).toEqual([
      { type: 'code', lang: 'python', text: 'x = a * b  # **not bold**' },
      { type: 'paragraph', children: [{ type: 'text', text: 'after' }] },
    ]);
  });

  it('reads pipe tables with alignment', () => {
    const [table] = parseMarkdown('| band | hit |\n|:---|---:|\n| 0.6-0.7 | 64% |');
    expect(table).toEqual({
      type: 'table',
      align: ['left', 'right'],
      head: [[{ type: 'text', text: 'band' }], [{ type: 'text', text: 'hit' }]],
      rows: [[[{ type: 'text', text: '0.6-0.7' }], [{ type: 'text', text: '64%' }]]],
    });
  });

  it('reads block quotes and horizontal rules', () => {
    expect(parseMarkdown('> careful\n\n***')).toEqual([
      { type: 'quote', children: [{ type: 'paragraph', children: [{ type: 'text', text: 'careful' }] }] },
      { type: 'hr' },
    ]);
  });

  it('keeps raw HTML as text, so a record cannot inject markup', () => {
    expect(parseMarkdown('<img src=x onerror=alert(1)>')).toEqual([{ type: 'paragraph', children: [{ type: 'text', text: '<img src=x onerror=alert(1)>' }] }]);
  });

  it('makes web links clickable but turns javascript: and data: links into plain text', () => {
    const nodes = parseInline('[FRED](https://fred.stlouisfed.org) [x](javascript:alert) [y](data:text/html,hi)');
    expect(nodes).toEqual([
      { type: 'link', href: 'https://fred.stlouisfed.org', children: [{ type: 'text', text: 'FRED' }] },
      { type: 'text', text: ' ' },
      { type: 'text', text: 'x' },
      { type: 'text', text: ' ' },
      { type: 'text', text: 'y' },
    ]);
    expect(safeHref(' JAVASCRIPT:alert(1)')).toBeNull();
    expect(safeHref('mailto:pm@example.com')).toBe('mailto:pm@example.com');
  });

  it('survives pathological input (deep nesting, unclosed markers) without throwing or hanging', () => {
    const deep = '>'.repeat(500) + ' x\n\n' + '- '.repeat(300) + 'y\n\n' + '*'.repeat(2000) + '\n\n```\nunclosed';
    const started = Date.now();
    const blocks = parseMarkdown(deep);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(blocks.at(-1)).toEqual({ type: 'code', lang: '', text: 'unclosed' });
  });

  it('honours backslash escapes', () => {
    expect(parseInline('\\*not italic\\*')).toEqual([{ type: 'text', text: '*not italic*' }]);
  });
});
