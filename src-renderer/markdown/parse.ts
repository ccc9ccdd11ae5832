/**
 * A small markdown parser for memory records and analyst output. It produces a plain tree that
 * `Markdown.tsx` turns into React elements — never HTML strings — so text from memory (written by
 * an LLM, or by anyone who can write a file) cannot inject markup or script. Raw HTML in the
 * source is shown as text.
 *
 * Supported: ATX headings, paragraphs (single newlines become line breaks), ordered and unordered
 * lists (nested by indentation), fenced code blocks, block quotes, horizontal rules, pipe tables,
 * and inline bold, italic, code, strikethrough and http(s)/mailto links.
 */

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'strong'; children: Inline[] }
  | { type: 'em'; children: Inline[] }
  | { type: 'del'; children: Inline[] }
  | { type: 'code'; text: string }
  | { type: 'link'; href: string; children: Inline[] }
  | { type: 'br' };

export type Align = 'left' | 'center' | 'right' | null;

export type Block =
  | { type: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; children: Inline[] }
  | { type: 'paragraph'; children: Inline[] }
  | { type: 'list'; ordered: boolean; start: number; items: Block[][] }
  | { type: 'code'; lang: string; text: string }
  | { type: 'quote'; children: Block[] }
  | { type: 'hr' }
  | { type: 'table'; align: Align[]; head: Inline[][]; rows: Inline[][][] };

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^( {0,3})(`{3,}|~{3,})[ \t]*([^`\s]*)[^`]*$/;
const HR = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const LIST_ITEM = /^( *)([-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const TABLE_DELIM = /^ *\|? *:?-+:? *(?:\| *:?-+:? *)*\|? *$/;

const isBlank = (line: string) => line.trim().length === 0;
const indentOf = (line: string) => line.length - line.replace(/^ +/, '').length;

function startsBlock(line: string): boolean {
  return HEADING.test(line) || FENCE.test(line) || HR.test(line) || QUOTE.test(line) || LIST_ITEM.test(line);
}

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').replace(/\t/g, '    ').split('\n');
  return parseBlocks(lines, 0);
}

function parseBlocks(lines: string[], depth: number): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (isBlank(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[2];
      const body: string[] = [];
      i++;
      while (i < lines.length && !new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`).test(lines[i])) {
        body.push(lines[i].slice(Math.min(fence[1].length, indentOf(lines[i]))));
        i++;
      }
      i++; // closing fence (or past the end when unclosed)
      blocks.push({ type: 'code', lang: fence[3] ?? '', text: body.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({
        type: 'heading',
        level: heading[1].length as 1 | 2 | 3 | 4 | 5 | 6,
        children: parseInline(heading[2] ?? ''),
      });
      i++;
      continue;
    }
    if (HR.test(line)) {
      blocks.push({ type: 'hr' });
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const inner: string[] = [];
      while (i < lines.length && !isBlank(lines[i])) {
        const q = QUOTE.exec(lines[i]);
        inner.push(q ? q[1] : lines[i]);
        i++;
      }
      // Deep nesting is an attack, not a document: flatten past a sane depth.
      blocks.push({ type: 'quote', children: depth > 8 ? [paragraphOf(inner)] : parseBlocks(inner, depth + 1) });
      continue;
    }
    if (LIST_ITEM.test(line)) {
      const [list, next] = parseList(lines, i, depth);
      blocks.push(list);
      i = next;
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && TABLE_DELIM.test(lines[i + 1]) && lines[i + 1].includes('-')) {
      const head = splitRow(line);
      const align = splitRow(lines[i + 1]).map(alignOf);
      if (align.length === head.length) {
        i += 2;
        const rows: Inline[][][] = [];
        while (i < lines.length && !isBlank(lines[i]) && lines[i].includes('|')) {
          const cells = splitRow(lines[i]);
          rows.push(head.map((_, c) => parseInline(cells[c] ?? '')));
          i++;
        }
        blocks.push({ type: 'table', align, head: head.map((h) => parseInline(h)), rows });
        continue;
      }
    }
    const para: string[] = [line];
    i++;
    while (i < lines.length && !isBlank(lines[i]) && !startsBlock(lines[i])) {
      para.push(lines[i]);
      i++;
    }
    blocks.push(paragraphOf(para));
  }
  return blocks;
}

function paragraphOf(lines: string[]): Block {
  const children: Inline[] = [];
  lines.forEach((l, n) => {
    if (n > 0) children.push({ type: 'br' });
    children.push(...parseInline(l.trim()));
  });
  return { type: 'paragraph', children };
}

function parseList(lines: string[], start: number, depth: number): [Block, number] {
  const first = LIST_ITEM.exec(lines[start])!;
  const baseIndent = first[1].length;
  const ordered = /\d/.test(first[2]);
  const items: Block[][] = [];
  let i = start;
  while (i < lines.length) {
    const m = LIST_ITEM.exec(lines[i]);
    if (!m || m[1].length !== baseIndent || /\d/.test(m[2]) !== ordered) break;
    const contentIndent = baseIndent + m[2].length + 1;
    const itemLines = [m[3] ?? ''];
    i++;
    while (i < lines.length) {
      const l = lines[i];
      if (isBlank(l)) {
        // A blank line continues the item only when indented content follows.
        if (i + 1 < lines.length && !isBlank(lines[i + 1]) && indentOf(lines[i + 1]) >= contentIndent) {
          itemLines.push('');
          i++;
          continue;
        }
        break;
      }
      const ind = indentOf(l);
      if (ind >= contentIndent || (ind > baseIndent && LIST_ITEM.test(l))) {
        itemLines.push(l.slice(Math.min(ind, contentIndent)));
      } else if (!startsBlock(l) && ind > baseIndent) {
        itemLines.push(l.trim());
      } else if (!startsBlock(l) && itemLines.length > 0 && !isBlank(itemLines[itemLines.length - 1])) {
        itemLines.push(l.trim()); // lazy continuation of the item's paragraph
      } else {
        break;
      }
      i++;
    }
    items.push(depth > 8 ? [paragraphOf(itemLines)] : parseBlocks(itemLines, depth + 1));
    // A single blank line between items keeps the list going.
    if (i < lines.length && isBlank(lines[i]) && i + 1 < lines.length) {
      const n = LIST_ITEM.exec(lines[i + 1]);
      if (n && n[1].length === baseIndent && /\d/.test(n[2]) === ordered) i++;
    }
  }
  return [{ type: 'list', ordered, start: ordered ? parseInt(first[2], 10) : 1, items }, i];
}

function splitRow(line: string): string[] {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  const cells: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && s[i + 1] === '|') {
      cur += '|';
      i++;
    } else if (s[i] === '|') {
      cells.push(cur.trim());
      cur = '';
    } else cur += s[i];
  }
  cells.push(cur.trim());
  return cells;
}

function alignOf(cell: string): Align {
  const left = cell.startsWith(':');
  const right = cell.endsWith(':');
  return left && right ? 'center' : right ? 'right' : left ? 'left' : null;
}

const SAFE_HREF = /^(https?:\/\/|mailto:)/i;
const ESCAPABLE = '\\`*_{}[]()#+-.!|~>';
const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** Only web and mail links survive; `javascript:`, `data:`, `file:` and relative links become plain text. */
export function safeHref(href: string): string | null {
  const h = href.trim();
  return SAFE_HREF.test(h) ? h : null;
}

export function parseInline(src: string, depth = 0): Inline[] {
  const out: Inline[] = [];
  let text = '';
  const flush = () => {
    if (text) out.push({ type: 'text', text });
    text = '';
  };
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === '\\' && i + 1 < src.length && ESCAPABLE.includes(src[i + 1])) {
      text += src[i + 1];
      i += 2;
      continue;
    }
    if (c === '`') {
      let run = 1;
      while (src[i + run] === '`') run++;
      const fence = '`'.repeat(run);
      const close = findRun(src, fence, i + run);
      if (close >= 0) {
        flush();
        let code = src.slice(i + run, close);
        if (code.startsWith(' ') && code.endsWith(' ') && code.trim()) code = code.slice(1, -1);
        out.push({ type: 'code', text: code });
        i = close + run;
        continue;
      }
      text += fence;
      i += run;
      continue;
    }
    if (depth < 12 && (c === '*' || c === '_' || c === '~')) {
      const double = src[i + 1] === c;
      if (c === '~' && !double) {
        text += c;
        i++;
        continue;
      }
      const marker = double ? c + c : c;
      const opensOk = src[i + marker.length] !== undefined && !/\s/.test(src[i + marker.length]) && !(c === '_' && isWordChar(src[i - 1]));
      if (opensOk) {
        const close = findCloser(src, marker, i + marker.length);
        if (close > i + marker.length) {
          flush();
          const children = parseInline(src.slice(i + marker.length, close), depth + 1);
          out.push(c === '~' ? { type: 'del', children } : double ? { type: 'strong', children } : { type: 'em', children });
          i = close + marker.length;
          continue;
        }
      }
      text += marker;
      i += marker.length;
      continue;
    }
    if (c === '[' && depth < 12) {
      const link = matchLink(src, i);
      if (link) {
        flush();
        const children = parseInline(link.label, depth + 1);
        const href = safeHref(link.href);
        if (href) out.push({ type: 'link', href, children });
        else out.push(...children);
        i = link.end;
        continue;
      }
    }
    text += c;
    i++;
  }
  flush();
  return out;
}

function findRun(src: string, fence: string, from: number): number {
  let at = src.indexOf(fence, from);
  while (at >= 0) {
    const before = src[at - 1] === '`';
    const after = src[at + fence.length] === '`';
    if (!before && !after) return at;
    at = src.indexOf(fence, at + 1);
  }
  return -1;
}

function findCloser(src: string, marker: string, from: number): number {
  const c = marker[0];
  for (let j = from; j < src.length; j++) {
    if (src[j] === '\\') {
      j++;
      continue;
    }
    if (src[j] === '`') {
      let run = 1;
      while (src[j + run] === '`') run++;
      const close = findRun(src, '`'.repeat(run), j + run);
      if (close >= 0) j = close + run - 1;
      continue;
    }
    if (src.startsWith(marker, j) && !/\s/.test(src[j - 1] ?? ' ')) {
      // A single marker must not be half of a double one (`*a **b** c*`).
      if (marker.length === 1 && (src[j + 1] === c || src[j - 1] === c)) {
        if (src[j + 1] === c) j++;
        continue;
      }
      if (c === '_' && isWordChar(src[j + marker.length])) continue;
      return j;
    }
  }
  return -1;
}

function matchLink(src: string, at: number): { label: string; href: string; end: number } | null {
  let depth = 0;
  let j = at;
  for (; j < src.length; j++) {
    if (src[j] === '\\') {
      j++;
      continue;
    }
    if (src[j] === '[') depth++;
    else if (src[j] === ']') {
      depth--;
      if (depth === 0) break;
    }
  }
  if (j >= src.length || src[j + 1] !== '(') return null;
  const close = src.indexOf(')', j + 2);
  if (close < 0) return null;
  const href =
    src
      .slice(j + 2, close)
      .trim()
      .split(/\s+/)[0] ?? '';
  return { label: src.slice(at + 1, j), href, end: close + 1 };
}
