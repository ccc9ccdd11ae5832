import { basename, extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { markdownUnits, type NoteUnit } from './chunk';

/**
 * Reads one broker note — markdown, plain text or PDF — into citable units, with its title and
 * date when the note states them (front matter `date:`, the PDF's creation date). A note that
 * cannot be read throws UnreadableNote: the index records the warning and skips it.
 */

export const NOTE_EXTENSIONS = new Set(['.md', '.markdown', '.txt', '.pdf']);

export type DateSource = 'front_matter' | 'pdf_metadata';

export interface ReadNote {
  title: string;
  /** YYYY-MM-DD when the note states it; else the index falls back to the file's time. */
  date: string | null;
  dateFrom: DateSource | null;
  units: NoteUnit[];
}

export class UnreadableNote extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableNote';
  }
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A date value from YAML or PDF metadata as YYYY-MM-DD, or null when it is not a real date. */
export function toDay(v: unknown): string | null {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString().slice(0, 10);
  if (typeof v !== 'string') return null;
  const s = v.trim().slice(0, 10);
  if (!DAY.test(s)) return null;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s ? s : null;
}

/** `---` YAML front matter at the top of a markdown or text note, and the body after it. */
export function splitFrontMatter(text: string): { meta: Record<string, unknown>; body: string } {
  const m = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m) return { meta: {}, body: text };
  try {
    const meta = parseYaml(m[1]!);
    return { meta: meta && typeof meta === 'object' && !Array.isArray(meta) ? (meta as Record<string, unknown>) : {}, body: text.slice(m[0].length) };
  } catch {
    // Not YAML after all: keep the text as written.
    return { meta: {}, body: text };
  }
}

export async function readNote(file: string, bytes: Buffer): Promise<ReadNote> {
  const ext = extname(file).toLowerCase();
  const fallbackTitle = basename(file);
  if (ext === '.pdf') return readPdf(bytes, fallbackTitle);
  const text = bytes.toString('utf8');
  if (text.includes('\u0000')) throw new UnreadableNote('binary content, not text');
  const { meta, body } = splitFrontMatter(text);
  const date = toDay(meta.date ?? meta.published ?? meta.as_of);
  const units = ext === '.txt' ? [{ text: body, section: '', page: null }] : markdownUnits(body);
  const heading = ext === '.txt' ? null : (/^\s{0,3}#\s+(.+?)\s*#*\s*$/m.exec(body)?.[1] ?? null);
  const title = typeof meta.title === 'string' && meta.title.trim() ? meta.title.trim() : (heading ?? fallbackTitle);
  return { title, date, dateFrom: date ? 'front_matter' : null, units };
}

type Unpdf = typeof import('unpdf');
let unpdf: Promise<Unpdf> | null = null;
// Loaded on first use: pdf.js is large and most sessions never read a PDF.
const loadUnpdf = () => {
  unpdf ??= import('unpdf');
  return unpdf;
};

async function readPdf(bytes: Buffer, fallbackTitle: string): Promise<ReadNote> {
  const { getDocumentProxy, extractText, getMeta } = await loadUnpdf();
  let doc: Awaited<ReturnType<Unpdf['getDocumentProxy']>>;
  try {
    // A copy: pdf.js transfers (detaches) the buffer it is given.
    doc = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  } catch (e) {
    const name = (e as Error)?.name;
    if (name === 'PasswordException') throw new UnreadableNote('encrypted (password-protected) PDF');
    throw new UnreadableNote(`not a readable PDF (${((e as Error)?.message ?? String(e)).slice(0, 120)})`);
  }
  try {
    const { text } = await extractText(doc, { mergePages: false });
    let info: Record<string, unknown> = {};
    try {
      info = (await getMeta(doc, { parseDates: true })).info ?? {};
    } catch {
      // Metadata is optional: a PDF without a readable Info dictionary is still indexed.
    }
    const units = text.map((t, i) => ({ text: pageParagraphs(t), section: '', page: i + 1 })).filter((u) => u.text.trim());
    if (!units.length) throw new UnreadableNote('no extractable text (a scanned image?)');
    const date = toDay(info.CreationDate) ?? toDay(info.ModDate);
    const title = typeof info.Title === 'string' && info.Title.trim() ? info.Title.trim() : fallbackTitle;
    return { title, date, dateFrom: date ? 'pdf_metadata' : null, units };
  } catch (e) {
    if (e instanceof UnreadableNote) throw e;
    throw new UnreadableNote(`the PDF's text could not be read (${((e as Error)?.message ?? String(e)).slice(0, 120)})`);
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}

/**
 * pdf.js gives a page as lines joined by newlines. Blank lines, where it emits them, mark
 * paragraphs; otherwise the page is one paragraph, which the chunker cuts between sentences.
 */
function pageParagraphs(page: string): string {
  return page.replace(/\r\n?/g, '\n').replace(/\n{2,}/g, '\n\n');
}
