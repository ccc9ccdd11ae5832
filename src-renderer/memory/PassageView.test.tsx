import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PassageView } from './PassageView';

describe('a broker-note passage opened from search', () => {
  it('shows markup inside broker text as text, never as HTML, with its citation and date', () => {
    const html = renderToStaticMarkup(
      <PassageView
        hit={{
          path: '/research/fed.pdf',
          id: 'fed.pdf#3',
          category: 'research',
          title: 'Fed outlook',
          score: 0.8,
          semantic: 0.9,
          vector: 0.5,
          keyword: 1,
          recency: 0.4,
          updatedAt: '2025-09-15',
          header: '[fed.pdf p.3] Fed outlook (2025-09-15)',
          passage: {
            note: 'fed.pdf',
            citation: '[fed.pdf p.3]',
            noteDate: '2025-09-15',
            text: 'Terminal rate 3.25%. <img src=x onerror="alert(1)"> <script>steal()</script>',
          },
        }}
        onClose={() => undefined}
      />,
    );
    // A PM opening a hostile PDF's passage must not run its markup.
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    expect(html).toContain('Terminal rate 3.25%.');
    expect(html).toContain('[fed.pdf p.3]');
    expect(html).toContain('dated 2025-09-15');
    expect(html).toContain('fetch research with note “fed.pdf”');
  });

  it('renders nothing for a memory hit (no passage)', () => {
    const html = renderToStaticMarkup(
      <PassageView
        hit={{
          path: '/memory/views/V-001.md',
          id: 'V-001',
          category: 'views',
          title: 'x',
          score: 1,
          semantic: 1,
          vector: 1,
          keyword: 1,
          recency: 1,
          updatedAt: '',
          header: '',
        }}
        onClose={() => undefined}
      />,
    );
    expect(html).toBe('');
  });
});
