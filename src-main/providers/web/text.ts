import { type HtmlNode, parseDocument } from './dom';

/** Elements that never carry readable text (and may carry outsiders' code). */
export const NON_TEXT = 'script, style, noscript, template, iframe, object, embed, svg, canvas';

const BLOCK = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'DD',
  'DETAILS',
  'DIV',
  'DL',
  'DT',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'FORM',
  'HEADER',
  'HR',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'SECTION',
  'SUMMARY',
  'TABLE',
  'TR',
  'UL',
]);
const HEADING = /^H([1-6])$/;

/**
 * Readable plain text of an element: paragraphs separated by blank lines, headings as `##`,
 * list items as `- `, table cells separated by ` | `, whitespace collapsed. Markdown-ish, so the
 * analyst sees the page's structure, not a wall of words.
 */
export function domText(root: HtmlNode): string {
  const out: string[] = [];
  const walk = (node: HtmlNode, pre: boolean) => {
    if (node.nodeType === 3) {
      const t = node.textContent ?? '';
      out.push(pre ? t : t.replace(/\s+/g, ' '));
      return;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
    const name = node.nodeName.toUpperCase();
    if (name === 'SCRIPT' || name === 'STYLE' || name === 'NOSCRIPT' || name === 'TEMPLATE') return;
    if (name === 'BR') return void out.push('\n');
    const heading = HEADING.exec(name);
    if (heading) out.push(`\n\n${'#'.repeat(Math.min(6, Number(heading[1]) + 1))} `);
    else if (name === 'LI') out.push('\n- ');
    else if (name === 'TD' || name === 'TH') out.push(' | ');
    else if (name === 'PRE') out.push('\n\n');
    else if (BLOCK.has(name)) out.push('\n\n');
    for (const child of Array.from(node.childNodes)) walk(child, pre || name === 'PRE');
    if (heading || name === 'PRE' || BLOCK.has(name)) out.push('\n\n');
  };
  walk(root, false);
  return out
    .join('')
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/^(\| )+/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** One line of text from a snippet of outsiders' HTML (search snippets carry <strong> highlights and entities). */
export function inlineText(html: string, max: number): string {
  let text = html;
  if (/[<&]/.test(html)) {
    const document = parseDocument(`<!doctype html><html><head></head><body>${html}</body></html>`);
    for (const el of document.querySelectorAll(NON_TEXT)) el.remove();
    text = document.body?.textContent ?? '';
  }
  return cap(text.replace(/\s+/g, ' ').trim(), max);
}

/** Cuts at a word boundary near `max` and marks the cut. */
export function cap(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return (space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd() + '…';
}
