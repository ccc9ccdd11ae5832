import { Store } from '../src-main/store';
import { HashNgramEmbedder, SearchIndex } from '../src-main/search';
import { makeQuery, rng } from './_macro-notes';
const store = Store.open('/tmp/s4/b100k.db');
const db = store.db;
const e = new HashNgramEmbedder();
const index = new SearchIndex(db, e);
const qr = rng(7);
const qs = Array.from({ length: 40 }, () => makeQuery(qr));
const T: Record<string, number[]> = {};
const tm = (k: string, f: () => any) => { const t = performance.now(); const r = f(); (T[k] ??= []).push(performance.now() - t); return r; };
index.cache.nearest(new Uint8Array(96), 10, { category: null, status: null, sinceDay: null, allowed: null });
for (const q of qs) {
  const v = tm('embed', () => e.embedOne(q));
  const code = tm('encode', () => index.quantizer.encode(v));
  const ids = tm('scan all', () => index.cache.nearest(code, 200, { category: null, status: 'active', sinceDay: null, allowed: null }));
  tm('scan obs', () => index.cache.nearest(code, 200, { category: 'observations', status: 'active', sinceDay: null, allowed: null }));
  tm('rescore200', () => db.prepare('SELECT rid, vector FROM search_entries WHERE rid IN (SELECT value FROM json_each(?)) AND +embedder = ?').all(JSON.stringify(ids), e.id));
  const words = q.toLowerCase().split(/\s+/);
  const or = words.map((w) => `"${w}"`).join(' OR ');
  const and = words.map((w) => `"${w}"`).join(' AND ');
  tm('fts OR join', () => db.prepare(`SELECT f.rowid, bm25(memory_fts,3,1,1) bm FROM memory_fts f JOIN memory_records r ON r.rid=f.rowid WHERE memory_fts MATCH ? AND r.status='active' ORDER BY bm LIMIT 60`).all(or));
  tm('fts OR plain', () => db.prepare(`SELECT rowid, bm25(memory_fts,3,1,1) bm FROM memory_fts WHERE memory_fts MATCH ? ORDER BY bm LIMIT 60`).all(or));
  tm('fts AND join', () => db.prepare(`SELECT f.rowid, bm25(memory_fts,3,1,1) bm FROM memory_fts f JOIN memory_records r ON r.rid=f.rowid WHERE memory_fts MATCH ? AND r.status='active' ORDER BY bm LIMIT 60`).all(and));
  tm('fts OR on cands', () => db.prepare(`SELECT rowid, bm25(memory_fts,3,1,1) bm FROM memory_fts WHERE memory_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))`).all(or, JSON.stringify(ids)));
  tm('fts count OR', () => db.prepare(`SELECT count(*) n FROM memory_fts WHERE memory_fts MATCH ?`).get(or));
}
for (const [k, xs] of Object.entries(T)) { xs.sort((a, b) => a - b); console.log(k.padEnd(16), xs[xs.length >> 1].toFixed(2)); }
console.log(db.prepare(`SELECT count(*) n FROM memory_fts WHERE memory_fts MATCH ?`).get(qs[0].toLowerCase().split(/\s+/).map((w) => `"${w}"`).join(' OR ')), qs[0]);
