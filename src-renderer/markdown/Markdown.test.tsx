import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown } from './Markdown';
import { safeHref, safeImageSrc } from './urls';

const html = (source: string) => renderToStaticMarkup(<Markdown source={source} />);

describe('Markdown component', () => {
  it('renders a record body as headings, lists and emphasis', () => {
    expect(html('## SUMMARY\nRates **lower**, *soon*.\n\n- Base\n- Bear')).toBe(
      '<div class="markdown"><h2>SUMMARY</h2>\n<p>Rates <strong>lower</strong>, <em>soon</em>.</p>\n<ul>\n<li>Base</li>\n<li>Bear</li>\n</ul></div>',
    );
  });

  it('keeps the lines a record writes on separate lines instead of joining them into one', () => {
    expect(html('Entry: 4.25\nStop: 4.50')).toMatch(/<p>Entry: 4.25<br\/>\s*Stop: 4.50<\/p>/);
    // …but a code block keeps its own newlines as they are.
    expect(html('```\na\nb\n```')).toContain('<code>a\nb\n</code>');
  });

  it('shows HTML and script written into a record as text instead of running it', () => {
    const out = html('<script>alert(1)</script>\n\nbefore <img src=x onerror=alert(2)> after');
    expect(out).not.toContain('<script');
    expect(out).not.toContain('<img');
    expect(out).not.toContain('onerror="');
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).toContain('before &lt;img src=x onerror=alert(2)&gt; after');
  });

  it('turns a javascript: or data: link into plain text', () => {
    const out = html('[click](javascript:alert(3)) and [data](data:text/html;base64,PHNjcmlwdD4=) and [vb](vbscript:x)');
    expect(out).not.toContain('href');
    expect(out).toContain('<span>click</span>');
    expect(out).toContain('<span>data</span>');
  });

  it('opens web and mail links outside the app window, and in-app links inside it', () => {
    expect(html('[FRED](https://fred.stlouisfed.org/)')).toContain('<a href="https://fred.stlouisfed.org/" target="_blank" rel="noreferrer noopener">FRED</a>');
    expect(html('[desk](mailto:desk@example.com)')).toContain('href="mailto:desk@example.com" target="_blank"');
    expect(html('[the View](#/views/V-001)')).toContain('<a href="#/views/V-001">the View</a>');
    // A bare fragment would change the app's route (screens live in the hash): text, not a link.
    expect(html('[top](#top)')).toContain('<span>top</span>');
  });

  it('never loads an image from a remote host; it shows what and where instead', () => {
    const out = html('![pixel](https://tracker.example/p.gif) ![inline](data:image/png;base64,AAAA)');
    expect(out).not.toContain('<img');
    expect(out).toContain('<a class="md-image" href="https://tracker.example/p.gif" target="_blank" rel="noreferrer noopener">Image: pixel</a>');
    expect(out).toContain('<span class="md-image">Image: inline</span>');
  });

  it('renders a GFM table with its alignment', () => {
    const out = html('| Leg | Notional |\n|:--|--:|\n| 2y | 10,000,000 |');
    expect(out).toContain('<div class="md-table-wrap" tabindex="0"><table>');
    expect(out).toContain('<th style="text-align:left">Leg</th><th style="text-align:right">Notional</th>');
    expect(out).toContain('<td style="text-align:left">2y</td><td style="text-align:right">10,000,000</td>');
  });

  it('renders a fenced code block with its language, and strikethrough', () => {
    const out = html('```python\nprint(1)\n```\n\n~~old~~');
    expect(out).toContain('<pre class="md-code" data-lang="python" tabindex="0"><code class="language-python">print(1)\n</code></pre>');
    expect(out).toContain('<del>old</del>');
  });
});

describe('address rules', () => {
  it('allows only web, mail and in-app addresses', () => {
    expect(safeHref(' https://x.test/a ')).toBe('https://x.test/a');
    expect(safeHref('HTTP://x.test')).toBe('HTTP://x.test');
    expect(safeHref('#/expressions/E-004')).toBe('#/expressions/E-004');
    for (const bad of ['javascript:alert(1)', 'JaVaScRiPt:x', 'data:text/html,x', 'file:///etc/passwd', '//evil.test', '/relative', '#anchor', ''])
      expect(safeHref(bad), bad).toBeUndefined();
  });

  it('keeps an image address only when it is a web address', () => {
    expect(safeImageSrc('https://x.test/i.png')).toBe('https://x.test/i.png');
    expect(safeImageSrc('data:image/png;base64,AAAA')).toBeUndefined();
    expect(safeImageSrc('mailto:a@b.c')).toBeUndefined();
  });
});
