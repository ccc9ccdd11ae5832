/**
 * Cuts a note into passages a search can cite: about 120–250 words each, on paragraph boundaries
 * (a paragraph longer than that is cut between sentences). A passage never spans two PDF pages or
 * two markdown sections, so its citation ("p.3", "§ Rates outlook") is exact.
 */

export const MIN_WORDS = 120;
export const MAX_WORDS = 250;

/** A stretch of a note that carries one citation: a PDF page, a markdown section, or a whole text note. */
export interface NoteUnit {
  text: string;
  /** The markdown heading it sits under ('' when none). */
  section: string;
  /** 1-based PDF page, or null. */
  page: number | null;
}

export interface Passage extends NoteUnit {
  /** 1-based within the note. */
  ordinal: number;
}

const words = (s: string) => (s.match(/\S+/g) ?? []).length;
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Sentences grouped up to `max` words; a single sentence longer than that is cut by words. */
function splitLong(paragraph: string, max: number): string[] {
  const sentences = paragraph.split(/(?<=[.!?;:])\s+(?=["“'([A-Z0-9])/);
  const out: string[] = [];
  let cur: string[] = [];
  let n = 0;
  const flush = () => {
    if (cur.length) out.push(cur.join(' '));
    cur = [];
    n = 0;
  };
  for (const s of sentences) {
    const w = words(s);
    if (w > max) {
      flush();
      const ws = s.split(/\s+/);
      for (let i = 0; i < ws.length; i += max) out.push(ws.slice(i, i + max).join(' '));
      continue;
    }
    if (n + w > max) flush();
    cur.push(s);
    n += w;
  }
  flush();
  return out;
}

/** The passages of one unit's text (paragraphs are separated by blank lines). */
export function chunkText(text: string, min = MIN_WORDS, max = MAX_WORDS): string[] {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map(squash)
    .filter(Boolean)
    .flatMap((p) => (words(p) > max ? splitLong(p, max) : [p]));
  const out: string[] = [];
  let cur: string[] = [];
  let n = 0;
  for (const p of paragraphs) {
    const w = words(p);
    if (cur.length && n + w > max) {
      out.push(cur.join('\n\n'));
      cur = [];
      n = 0;
    }
    cur.push(p);
    n += w;
    if (n >= min) {
      out.push(cur.join('\n\n'));
      cur = [];
      n = 0;
    }
  }
  if (cur.length) {
    // A short tail joins the passage before it rather than standing alone as a fragment.
    const prev = out.length ? out[out.length - 1]! : null;
    if (prev !== null && n < min / 2 && words(prev) + n <= max * 1.3) out[out.length - 1] = `${prev}\n\n${cur.join('\n\n')}`;
    else out.push(cur.join('\n\n'));
  }
  return out;
}

/** Every unit's passages, numbered through the note. */
export function chunkNote(units: NoteUnit[]): Passage[] {
  const out: Passage[] = [];
  for (const u of units) {
    for (const text of chunkText(u.text)) out.push({ text, section: u.section, page: u.page, ordinal: out.length + 1 });
  }
  return out;
}

/** A markdown body cut at its headings (fenced code is not searched for headings). */
export function markdownUnits(body: string): NoteUnit[] {
  const units: NoteUnit[] = [];
  let section = '';
  let lines: string[] = [];
  let fence = false;
  const flush = () => {
    const text = lines.join('\n').trim();
    if (text) units.push({ text, section, page: null });
    lines = [];
  };
  for (const line of body.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const h = fence ? null : /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (h) {
      flush();
      section = h[1]!.replace(/[*_`]/g, '').trim();
    } else lines.push(line);
  }
  flush();
  return units;
}
