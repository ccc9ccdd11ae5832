import { HashNgramEmbedder } from '../src-main/search';
import { makeNote, makeQuery, rng } from './_macro-notes';
const N = 100000, D = 384;
const e = new HashNgramEmbedder();
const r = rng(42);
const vecs: Float32Array[] = [];
for (let i = 0; i < N; i++) { const n = makeNote(r); vecs.push(e.embedOne(`# X-${i} — ${n.title}\nstatus: ${n.status}\nsource: bench\n---\n${n.body}\n`)); }
let nz = 0; for (const x of vecs[5]) if (x !== 0) nz++; console.log('nonzero dims', nz);
const qr = rng(7);
const qs = Array.from({ length: 50 }, () => e.embedOne(makeQuery(qr)));
function gauss(r: () => number) { return Math.sqrt(-2 * Math.log(r() + 1e-12)) * Math.cos(2 * Math.PI * r()); }
function proj(B: number) { const g = rng(99); const m = new Float32Array(B * D); for (let i = 0; i < m.length; i++) m[i] = gauss(g); return m; }
function bitsOf(v: Float32Array, P: Float32Array | null, B: number) { const W = B / 32; const out = new Uint32Array(W); for (let b = 0; b < B; b++) { let s: number; if (P) { s = 0; const o = b * D; for (let j = 0; j < D; j++) s += P[o + j] * v[j]; } else s = v[b]; if (s > 0) out[b >> 5] |= 1 << (b & 31); } return out; }
function pop(x: number) { x -= (x >>> 1) & 0x55555555; x = (x & 0x33333333) + ((x >>> 2) & 0x33333333); return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24; }
const exact = qs.map((q) => vecs.map((v, i) => { let s = 0; for (let j = 0; j < D; j++) s += v[j] * q[j]; return [i, s] as [number, number]; }).sort((a, b) => b[1] - a[1]).slice(0, 10).map((x) => x[0]));
for (const [name, B, useP] of [['sign384', 384, false], ['simhash384', 384, true], ['simhash768', 768, true]] as const) {
  const P = useP ? proj(B) : null; const W = B / 32;
  const packed = new Uint32Array(N * W); vecs.forEach((v, i) => packed.set(bitsOf(v, P, B), i * W));
  for (const C of [50, 100, 200, 400, 1000]) {
    let hit = 0; let tms = 0;
    qs.forEach((q, qi) => {
      const t0 = performance.now();
      const qb = bitsOf(q, P, B); const dist = new Uint16Array(N); const hist = new Uint32Array(B + 1);
      for (let i = 0; i < N; i++) { let d = 0; const o = i * W; for (let w = 0; w < W; w++) d += pop(packed[o + w] ^ qb[w]); dist[i] = d; hist[d]++; }
      let acc = 0, th = 0; for (; th <= B; th++) { acc += hist[th]; if (acc >= C) break; }
      const cand: number[] = []; for (let i = 0; i < N && cand.length < C * 3; i++) if (dist[i] <= th) cand.push(i);
      const top = cand.map((i) => { let s = 0; const v = vecs[i]; for (let j = 0; j < D; j++) s += v[j] * q[j]; return [i, s] as [number, number]; }).sort((a, b) => b[1] - a[1]).slice(0, 10).map((x) => x[0]);
      tms += performance.now() - t0;
      hit += top.filter((x) => exact[qi].includes(x)).length;
    });
    console.log(name, 'C', C, 'recall', (hit / 500).toFixed(3), 'ms', (tms / 50).toFixed(2));
  }
}
