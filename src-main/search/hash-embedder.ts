import { l2normalize, type Embedder } from './embedder';

/**
 * The offline default: feature hashing of word unigrams, word bigrams and character 3–5-grams,
 * with sublinear term frequency (1 + ln tf) and signed hashing, L2-normalised.
 *
 * It is lexical, not semantic: it matches shared words and word pieces ("steepener" ~ "steepening"),
 * not synonyms ("consumer weakness" will not find "retail sales miss" unless words overlap).
 * Configure a Voyage or OpenAI-compatible key for meaning-level search.
 */
export class HashNgramEmbedder implements Embedder {
  readonly id: string;
  readonly dims: number;

  constructor(dims = 384) {
    if (!Number.isInteger(dims) || dims < 8 || dims % 8 !== 0) throw new Error('HashNgramEmbedder dims must be a multiple of 8');
    this.dims = dims;
    this.id = `hash-ngram-${dims}`;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.embedOne(t));
  }

  /** Synchronous form, for benchmarks and bulk builds that need no await per record. */
  embedOne(text: string): Float32Array {
    const counts = new Map<string, number>();
    const add = (f: string, w: number) => counts.set(f, (counts.get(f) ?? 0) + w);
    const words = tokenize(text);
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      add('w:' + w, 1);
      if (i + 1 < words.length) add('b:' + w + ' ' + words[i + 1], 1);
      // Character grams let inflections and tickers share features (steepener/steepening, 2s10s/2s5s).
      const padded = '<' + w + '>';
      for (let n = 3; n <= 5; n++) {
        for (let j = 0; j + n <= padded.length; j++) add('c:' + padded.slice(j, j + n), 1);
      }
    }
    const v = new Float32Array(this.dims);
    for (const [feature, tf] of counts) {
      const kind = feature.charCodeAt(0);
      // Whole words carry the most meaning; char grams are many and individually weak.
      const weight = kind === 119 /* w */ ? 1 : kind === 98 /* b */ ? 0.8 : 0.25;
      const h = fnv1a(feature);
      const sign = h & 0x80000000 ? -1 : 1;
      v[(h & 0x7fffffff) % this.dims] += sign * weight * (1 + Math.log(tf));
    }
    return l2normalize(v);
  }
}

const STOP = new Set(['the', 'a', 'an', 'of', 'to', 'in', 'on', 'and', 'or', 'for', 'is', 'are', 'be', 'at', 'by', 'with', 'as', 'it', 'this', 'that', 'from']);

/** Lower-cased alphanumeric words (dots inside numbers kept: 4.25), common stop words dropped. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  const re = /[\p{L}\p{N}]+(?:\.[\p{N}]+)?/gu;
  for (const m of text.toLowerCase().matchAll(re)) if (!STOP.has(m[0])) out.push(m[0]);
  return out;
}

/** 32-bit FNV-1a over UTF-16 code units: fast, deterministic across runs and machines. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  // A final avalanche so that short features spread over all buckets and both signs.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}
