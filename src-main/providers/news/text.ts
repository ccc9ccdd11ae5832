import { parseHTML } from 'linkedom';

/**
 * Feed text is outsiders' HTML (descriptions are often escaped markup with links, images and the
 * odd script): reduce it to one line of plain text, entities decoded, and cap its length so one
 * verbose feed cannot crowd the analyst's context.
 */
export function plainText(raw: unknown, max: number): string {
  const s = textOf(raw);
  if (!s) return '';
  let text = s;
  if (/[<&]/.test(s)) {
    // A whole document, not a fragment: linkedom only builds <body> for documents.
    const { document } = parseHTML(`<!doctype html><html><head></head><body>${s}</body></html>`) as unknown as { document: HtmlDocument };
    for (const el of document.querySelectorAll('script, style, noscript, template, iframe, object, svg')) el.remove();
    // Block ends become spaces so "<p>One</p><p>Two</p>" reads "One Two", not "OneTwo".
    for (const el of document.querySelectorAll('p, br, div, li, h1, h2, h3, h4, h5, h6, tr, blockquote')) el.after(' ');
    text = document.body?.textContent ?? '';
  }
  return cap(text.replace(/\s+/g, ' ').trim(), max);
}

/** The slice of the DOM used here: the core's tsconfig has no DOM library, and linkedom's types assume one. */
interface HtmlElement {
  remove(): void;
  after(...nodes: string[]): void;
}
interface HtmlDocument {
  body: { textContent: string | null } | null;
  querySelectorAll(selector: string): Iterable<HtmlElement>;
}

/** Cuts at a word boundary near `max` and marks the cut. */
export function cap(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return (space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd() + '…';
}

/**
 * The text of a parsed XML value: a string, a number, a `{ '#text': … }` node (an element with
 * attributes), or a CDATA section's content; arrays take their first entry.
 */
export function textOf(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.length ? textOf(v[0]) : '';
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if ('#text' in o) return textOf(o['#text']);
  }
  return '';
}
