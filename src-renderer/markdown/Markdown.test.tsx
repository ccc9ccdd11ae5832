import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown } from './Markdown';

const html = (source: string) => renderToStaticMarkup(<Markdown source={source} />);

describe('Markdown component', () => {
  it('renders a record body as headings, lists and emphasis', () => {
    expect(html('## SUMMARY\nRates **lower**, *soon*.\n\n- Base\n- Bear')).toBe(
      '<div class="markdown"><h2>SUMMARY</h2><p>Rates <strong>lower</strong>, <em>soon</em>.</p><ul><li><p>Base</p></li><li><p>Bear</p></li></ul></div>',
    );
  });

  it('escapes HTML and script written into a record instead of running it', () => {
    const out = html('<script>alert(1)</script> <img src=x onerror=alert(2)>\n\n[click](javascript:alert(3))');
    expect(out).not.toContain('<script');
    expect(out).not.toContain('<img');
    expect(out).not.toContain('href="javascript');
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('opens web links outside the app window', () => {
    expect(html('[FRED](https://fred.stlouisfed.org/)')).toContain('<a href="https://fred.stlouisfed.org/" target="_blank" rel="noreferrer noopener">FRED</a>');
  });
});
