import { areWhole, type FieldWeights, idf, termScore, weightedFrequency } from './bm25';
import { BLOCK_BITS, OVERFLOW_COUNTS, Postings } from './postings';
import { topK } from './top-k';

/** A note as the keyword index sees it: FTS5's three column texts, already split into tokens, and the fields searches filter on. */
export interface KeywordDoc {
  rid: number;
  /** Tokens of each column (title, header, body) as FTS5 would index them, empty tokens included. */
  columns: readonly [readonly string[], readonly string[], readonly string[]];
  category: string;
  status: string | null;
  updatedAt: string;
}

/** Which notes a search may return: the scope and the filters the index can check itself, plus an optional exact set. */
export interface KeywordFilter {
  category?: string | null;
  status?: string | null;
  /** `updated_at >= since` (ISO text, compared as SQLite compares text). */
  since?: string | null;
  /** Bit `rid` set: the note meets conditions only SQL can evaluate. */
  allowed?: Uint8Array | null;
}

export interface KeywordHit {
  rid: number;
  score: number;
}

/**
 * An in-memory inverted index over memory's notes that ranks exactly as FTS5's `bm25()` on
 * `memory_fts` does — same tokens, same counts, same arithmetic — without a C extension, so the
 * ranking is the same on every platform. Searches take the best `k` by block-max MaxScore
 * (top-k.ts); see sync.ts for how it is built and kept current.
 */
export class KeywordIndex {
  private readonly termIds = new Map<string, number>();
  private readonly postings: Postings[] = [];
  /** Per record id: the note's token count (all columns), −1 when absent. */
  docLen = new Int32Array(1024).fill(-1);
  /** Per record id: the distinct words of the note (term ids), to take it out again. */
  private docTerms: (Int32Array | undefined)[] = [];
  private docCategory = new Int32Array(1024);
  private docStatus = new Int32Array(1024);
  private docUpdated: string[] = [];
  /** Per record id: its title, header and body token counts (three slots a note). */
  private docColumnLens = new Int32Array(3 * 1024);
  private readonly labels = new Map<string, number>([['', 0]]);
  /** Notes in the index now. */
  notes = 0;
  /** Their tokens, all columns (a desk's PostgreSQL has no FTS5 totals: BM25 takes its average note length from these). */
  tokens = 0;

  /** Notes holding this (already tokenized) word. */
  documentFrequency(term: string): number {
    const id = this.termIds.get(term);
    return id === undefined ? 0 : this.postings[id].length;
  }

  has(rid: number): boolean {
    return rid < this.docLen.length && this.docLen[rid] >= 0;
  }

  /** Scratch for `put`: per term id, the last note that counted it and its three column counts. */
  private seenIn = new Int32Array(1024);
  private scratchCounts = new Int32Array(3 * 1024);
  private scratchTerms = new Int32Array(256);

  /** Adds the note, or replaces what the index held for it. */
  put(doc: KeywordDoc): void {
    if (this.has(doc.rid)) this.delete(doc.rid);
    this.ensureRid(doc.rid);
    // Counted without a Map per note: at startup the whole memory goes through here.
    const stamp = doc.rid + 1;
    let distinct = 0;
    let len = 0;
    for (let col = 0; col < 3; col++) {
      const tokens = doc.columns[col];
      len += tokens.length;
      for (const tok of tokens) {
        // FTS5 counts an empty token (a word made only of removed diacritics) but no query can name it.
        if (!tok) continue;
        let id = this.termIds.get(tok);
        if (id === undefined) {
          id = this.postings.length;
          this.termIds.set(tok, id);
          this.postings.push(new Postings());
          this.growScratch(id);
        }
        if (this.seenIn[id] !== stamp) {
          this.seenIn[id] = stamp;
          this.scratchCounts[3 * id] = 0;
          this.scratchCounts[3 * id + 1] = 0;
          this.scratchCounts[3 * id + 2] = 0;
          if (distinct === this.scratchTerms.length) {
            const more = new Int32Array(distinct * 2);
            more.set(this.scratchTerms);
            this.scratchTerms = more;
          }
          this.scratchTerms[distinct++] = id;
        }
        this.scratchCounts[3 * id + col]++;
      }
    }
    const terms = this.scratchTerms.slice(0, distinct);
    for (let i = 0; i < distinct; i++) {
      const id = terms[i];
      this.postings[id].set(doc.rid, this.scratchCounts[3 * id], this.scratchCounts[3 * id + 1], this.scratchCounts[3 * id + 2]);
      // A later note with the same rid + 1 stamp must not see this note's counts.
      this.seenIn[id] = 0;
    }
    this.docTerms[doc.rid] = terms;
    this.docLen[doc.rid] = len;
    this.tokens += len;
    this.docCategory[doc.rid] = this.label(doc.category);
    this.docStatus[doc.rid] = doc.status === null ? 0 : this.label(doc.status) + 1;
    this.docUpdated[doc.rid] = doc.updatedAt;
    this.docColumnLens[3 * doc.rid] = doc.columns[0].length;
    this.docColumnLens[3 * doc.rid + 1] = doc.columns[1].length;
    this.docColumnLens[3 * doc.rid + 2] = doc.columns[2].length;
    this.notes++;
  }

  private growScratch(id: number): void {
    if (id < this.seenIn.length) return;
    const seen = new Int32Array(this.seenIn.length * 2);
    seen.set(this.seenIn);
    this.seenIn = seen;
    const counts = new Int32Array(this.scratchCounts.length * 2);
    counts.set(this.scratchCounts);
    this.scratchCounts = counts;
  }

  /** Gives back the room postings lists grew into (after a build: up to half of their memory). */
  compact(): void {
    for (const p of this.postings) p.trim();
  }

  /** Takes the note out (no-op when absent). */
  delete(rid: number): void {
    if (!this.has(rid)) return;
    for (const id of this.docTerms[rid] ?? []) this.postings[id].delete(rid);
    this.docTerms[rid] = undefined;
    this.tokens -= this.docLen[rid];
    this.docLen[rid] = -1;
    this.notes--;
  }

  /** The note's token count in each column (title, header, body), or null when absent. */
  columnSizes(rid: number): readonly [number, number, number] | null {
    if (!this.has(rid)) return null;
    const c = this.docColumnLens;
    return [c[3 * rid], c[3 * rid + 1], c[3 * rid + 2]];
  }

  /**
   * The best `k` notes for these words (OR), best first, ties by record id — FTS5's
   * `ORDER BY bm25(...), rowid LIMIT k` over the same words, with the same scores. `corpus` is what
   * FTS5's bm25() takes N and the average length from: its own totals (see sync.ts), which count
   * every row ever inserted (a contentless_delete table does not take a deleted row back out).
   */
  search(terms: readonly string[], k: number, weights: FieldWeights, filter: KeywordFilter | null, corpus: { rows: number; tokens: number }): KeywordHit[] {
    const avgdl = corpus.tokens / corpus.rows;
    const whole = areWhole(weights);
    const lists: { postings: Postings; idf: number }[] = [];
    for (const term of new Set(terms)) {
      const id = this.termIds.get(term);
      if (id === undefined || this.postings[id].length === 0) continue;
      const p = this.postings[id];
      p.refreshBounds(this.docLen, weights, whole, avgdl);
      lists.push({ postings: p, idf: idf(corpus.rows, p.length) });
    }
    if (!lists.length || k < 1) return [];
    const docLen = this.docLen;
    const score = (p: Postings, i: number, termIdf: number) => {
      // Unpacked in place: this runs for every note scored, and an array per call is garbage.
      const c = p.counts[i];
      const f =
        c === OVERFLOW_COUNTS
          ? weightedFrequency(...p.countsAt(i), weights, whole)
          : weightedFrequency(c >>> 24, (c >>> 16) & 0xff, c & 0xffff, weights, whole);
      return termScore(termIdf, f, docLen[p.rids[i]], avgdl);
    };
    const blockBound = (p: Postings, block: number, termIdf: number) => termIdf * p.blockBound[block];
    return topK(lists, k, { score, blockBound, accept: this.acceptor(filter), blockBits: BLOCK_BITS });
  }

  private acceptor(filter: KeywordFilter | null): ((rid: number) => boolean) | null {
    if (!filter) return null;
    const cat = filter.category != null ? (this.labels.get(filter.category) ?? -1) : null;
    const status = filter.status != null ? (this.labels.has(filter.status) ? this.labels.get(filter.status)! + 1 : -1) : null;
    const since = filter.since ?? null;
    const allowed = filter.allowed ?? null;
    if (cat === null && status === null && since === null && allowed === null) return null;
    return (rid) =>
      (cat === null || this.docCategory[rid] === cat) &&
      (status === null || this.docStatus[rid] === status) &&
      (since === null || (this.docUpdated[rid] ?? '') >= since) &&
      (allowed === null || (rid >> 3 < allowed.length && (allowed[rid >> 3] & (1 << (rid & 7))) !== 0));
  }

  private label(s: string): number {
    let code = this.labels.get(s);
    if (code === undefined) {
      code = this.labels.size;
      this.labels.set(s, code);
    }
    return code;
  }

  private ensureRid(rid: number): void {
    if (rid < this.docLen.length) return;
    let cap = this.docLen.length;
    while (cap <= rid) cap *= 2;
    const len = new Int32Array(cap).fill(-1);
    len.set(this.docLen);
    this.docLen = len;
    const cat = new Int32Array(cap);
    cat.set(this.docCategory);
    this.docCategory = cat;
    const lens = new Int32Array(3 * cap);
    lens.set(this.docColumnLens);
    this.docColumnLens = lens;
    const st = new Int32Array(cap);
    st.set(this.docStatus);
    this.docStatus = st;
  }
}
