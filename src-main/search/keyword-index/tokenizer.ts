import { PORTER_MAX_TOKEN_BYTES, porterStemBytes } from './porter';
import { CONTINUE_ONLY_RANGES, FOLD_RUNS, START_RANGES } from './unicode-tables';

/**
 * The tokens FTS5 indexes for `tokenize = 'porter unicode61 remove_diacritics 2'` (memory_fts), in
 * order, so an in-memory index can reproduce `bm25()` exactly: same terms, same column sizes.
 *
 * unicode61 (fts5UnicodeTokenize): a token starts at an ASCII letter or digit or at a non-ASCII code
 * point of category L*, N* or Co; inside a token diacritics continue it too; every character is
 * folded (lower case, diacritics removed) and dropped when it folds to nothing. Which code points do
 * what is read off the bundled SQLite by scripts/fts5-unicode-tables.ts (unicode-tables.ts).
 * porter (fts5PorterCb) then stems tokens of 3..64 UTF-8 bytes; the index keeps at most
 * FTS5_MAX_TOKEN_SIZE bytes of a token (fts5StorageInsertCallback).
 *
 * A token is returned as the JavaScript string of its UTF-8 bytes. Stemming or truncation can cut a
 * multi-byte character (e.g. porter drops a doubled consonant, and non-ASCII bytes are consonants);
 * such a token is not valid UTF-8, and is returned as INVALID_UTF8_MARK followed by one char per
 * byte, so distinct byte strings stay distinct terms (fts5TokenBytes turns it back into the bytes).
 */

/** FTS5_MAX_TOKEN_SIZE: the index stores (and queries use) at most this many bytes of a token. */
export const FTS5_MAX_TOKEN_BYTES = 32768;

/** U+FFFF never survives unicode61 (SQLite reads it as U+FFFD, a separator), so it cannot begin a real token. */
export const INVALID_UTF8_MARK = '\uffff';

/** ASCII classes: 0 separator, 1 token char, 2 upper-case letter (token char, folded). */
const ASCII = new Uint8Array(128);
/** BMP flags: bit 1 starts a token, bit 2 continues one. */
const BMP = new Uint8Array(0x10000);
/** BMP fold map (identity where nothing changes). */
const BMP_FOLD = new Uint32Array(0x10000);
/** Astral code points are rare: sorted ranges and fold pairs, binary-searched. */
const ASTRAL_START: number[] = [];
const ASTRAL_CONTINUE: number[] = [];
const ASTRAL_FOLD = new Map<number, number>();

function loadTables(): void {
  for (let c = 0; c < 0x10000; c++) BMP_FOLD[c] = c;
  const mark = (flat: readonly number[], bits: number, astral: number[]) => {
    for (let i = 0; i < flat.length; i += 2) {
      const lo = flat[i];
      const hi = flat[i + 1];
      for (let c = lo; c <= Math.min(hi, 0xffff); c++) BMP[c] |= bits;
      if (hi > 0xffff) astral.push(Math.max(lo, 0x10000), hi);
    }
  };
  mark(START_RANGES, 3, ASTRAL_START);
  mark(CONTINUE_ONLY_RANGES, 2, ASTRAL_CONTINUE);
  for (let i = 0; i < FOLD_RUNS.length; i += 5) {
    const [start, count, stride, value, mode] = FOLD_RUNS.slice(i, i + 5);
    for (let k = 0; k < count; k++) {
      const c = start + k * stride;
      const f = mode === 0 ? c + value : value;
      if (c < 0x10000) BMP_FOLD[c] = f;
      else ASTRAL_FOLD.set(c, f);
    }
  }
  for (let c = 0; c < 128; c++) ASCII[c] = BMP[c] & 1 ? (BMP_FOLD[c] !== c ? 2 : 1) : 0;
}
loadTables();

/** Whether cp lies in the sorted, disjoint flat [lo, hi, …] ranges. */
function inRanges(flat: readonly number[], cp: number): boolean {
  let lo = 0;
  let hi = flat.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < flat[2 * mid]) hi = mid - 1;
    else if (cp > flat[2 * mid + 1]) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Flags of a non-ASCII code point: bit 1 starts, bit 2 continues. */
function flagsOf(cp: number): number {
  if (cp < 0x10000) return BMP[cp];
  if (inRanges(ASTRAL_START, cp)) return 3;
  return inRanges(ASTRAL_CONTINUE, cp) ? 2 : 0;
}

function foldOf(cp: number): number {
  return cp < 0x10000 ? BMP_FOLD[cp] : (ASTRAL_FOLD.get(cp) ?? cp);
}

/** Scratch for porter: a token of at most 64 UTF-8 bytes, plus room for the longest UTF-16 reading of it. */
const SCRATCH = new Uint8Array(256);
const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/** The term for bytes that may not be valid UTF-8 (see INVALID_UTF8_MARK). */
function termOfBytes(b: Uint8Array): string {
  try {
    return strictDecoder.decode(b);
  } catch {
    let s = INVALID_UTF8_MARK;
    for (const byte of b) s += String.fromCharCode(byte);
    return s;
  }
}

/**
 * A copy of s that does not share memory with the text it was cut from: V8 keeps a slice's whole
 * parent alive (slices of 13+ characters), and an index holding one term per note would otherwise
 * hold every note's text.
 */
function detach(s: string): string {
  return s.length < 13 ? s : ` ${s}`.slice(1);
}

/** Porter then the index's size cap, as fts5PorterCb and fts5StorageInsertCallback apply them. */
function finishAscii(token: string): string {
  const n = token.length;
  if (n < 3) return token;
  if (n > PORTER_MAX_TOKEN_BYTES) return detach(n > FTS5_MAX_TOKEN_BYTES ? token.slice(0, FTS5_MAX_TOKEN_BYTES) : token);
  // Words repeat (Zipf): a bounded memo of stems halves the cost of tokenizing a large corpus.
  // It holds only a pure function's results, so sharing it between stores is safe.
  const known = STEMS.get(token);
  if (known !== undefined) return known;
  const raw = stemAscii(token, n);
  const word = detach(token);
  const stem = raw === token ? word : detach(raw);
  if (STEMS.size >= STEM_MEMO_SIZE) STEMS.clear();
  STEMS.set(word, stem);
  return stem;
}

const STEM_MEMO_SIZE = 50_000;
const STEMS = new Map<string, string>();

function stemAscii(token: string, n: number): string {
  for (let i = 0; i < n; i++) SCRATCH[i] = token.charCodeAt(i);
  const m = porterStemBytes(SCRATCH, n);
  // Porter only rewrites the tail: keep the untouched prefix as a slice of the token.
  let k = 0;
  while (k < m && SCRATCH[k] === token.charCodeAt(k)) k++;
  if (k === m && m === n) return token;
  let tail = '';
  for (let i = k; i < m; i++) tail += String.fromCharCode(SCRATCH[i]);
  return token.slice(0, k) + tail;
}

function finishNonAscii(token: string): string {
  if (token.length <= PORTER_MAX_TOKEN_BYTES) {
    const { written } = encoder.encodeInto(token, SCRATCH);
    if (written >= 3 && written <= PORTER_MAX_TOKEN_BYTES) {
      const m = porterStemBytes(SCRATCH, written);
      return termOfBytes(SCRATCH.subarray(0, m));
    }
    return token;
  }
  // Up to 3 bytes per UTF-16 unit: only a long token can exceed the index's cap.
  if (token.length * 3 <= FTS5_MAX_TOKEN_BYTES) return token;
  const bytes = encoder.encode(token);
  return bytes.length > FTS5_MAX_TOKEN_BYTES ? termOfBytes(bytes.subarray(0, FTS5_MAX_TOKEN_BYTES)) : token;
}

/** The token starting at a non-ASCII or mixed position: the general (slow) path. */
function readToken(text: string, from: number, prefix: string, out: string[]): number {
  let tok = prefix;
  let ascii = true;
  let i = from;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      const cls = ASCII[c];
      if (cls === 0) break;
      tok += cls === 2 ? String.fromCharCode(c + 32) : text[i];
      i++;
      continue;
    }
    const [cp, width] = codePointAt(text, i, c);
    if ((flagsOf(cp) & 2) === 0) break;
    const f = foldOf(cp);
    if (f !== 0) {
      tok += String.fromCodePoint(f);
      if (f >= 128) ascii = false;
    }
    i += width;
  }
  out.push(ascii ? finishAscii(tok) : detach(finishNonAscii(tok)));
  return i;
}

/** The code point at i (c = its first unit); a lone surrogate reaches SQLite as U+FFFD. */
function codePointAt(text: string, i: number, c: number): [number, number] {
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return [(c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000, 2];
  }
  return [c >= 0xd800 && c <= 0xdfff ? 0xfffd : c, 1];
}

/** The tokens FTS5 indexes for one column's text, in order; the column's size is their count. */
export function fts5Tokens(text: string): string[] {
  const out: string[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      let cls = ASCII[c];
      if (cls === 0) {
        i++;
        continue;
      }
      // Fast path: a run of ASCII token characters, sliced from the text.
      const start = i;
      let upper = cls === 2;
      let j = i + 1;
      let d = 0;
      for (; j < n; j++) {
        d = text.charCodeAt(j);
        if (d >= 128) break;
        cls = ASCII[d];
        if (cls === 0) break;
        if (cls === 2) upper = true;
      }
      const run = upper ? text.slice(start, j).toLowerCase() : text.slice(start, j);
      if (j < n && d >= 128 && (flagsOf(codePointAt(text, j, d)[0]) & 2) !== 0) {
        i = readToken(text, j, run, out);
      } else {
        out.push(finishAscii(run));
        i = j;
      }
      continue;
    }
    const [cp, width] = codePointAt(text, i, c);
    if ((flagsOf(cp) & 1) === 0) {
      i += width;
      continue;
    }
    i = readToken(text, i, '', out);
  }
  return out;
}

/**
 * Query words as FTS5 would match them: each word tokenized like a column (porter included), the
 * tokens flattened in order, empty ones dropped, each term kept once (its first occurrence).
 */
export function queryTerms(words: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const word of words) {
    for (const term of fts5Tokens(word)) {
      if (term === '' || seen.has(term)) continue;
      seen.add(term);
      out.push(term);
    }
  }
  return out;
}

/** The UTF-8 bytes FTS5 stores for a term returned by fts5Tokens (undoing INVALID_UTF8_MARK). */
export function fts5TokenBytes(term: string): Uint8Array {
  if (!term.startsWith(INVALID_UTF8_MARK)) return encoder.encode(term);
  return Uint8Array.from(term.slice(1), (ch) => ch.charCodeAt(0));
}

/**
 * How unicode61 treats one code point, read from the loaded tables: whether a token can start there,
 * whether it continues one, and what it folds to inside a token (0 = dropped). Lets the tests compare
 * the committed tables with a fresh probe of SQLite.
 */
export function unicodeClass(cp: number): { starts: boolean; continues: boolean; fold: number } {
  const flags = cp < 128 ? (ASCII[cp] === 0 ? 0 : 3) : flagsOf(cp);
  return { starts: (flags & 1) !== 0, continues: (flags & 2) !== 0, fold: (flags & 2) !== 0 ? foldOf(cp) : -1 };
}
