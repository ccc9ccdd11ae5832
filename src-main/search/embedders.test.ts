import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { dot, EmbedderError } from './embedder';
import { HashNgramEmbedder } from './hash-embedder';
import { OpenAICompatibleEmbedder, VoyageEmbedder } from './http-embedder';

describe('HashNgramEmbedder (offline default)', () => {
  const e = new HashNgramEmbedder();

  it('gives the same vector for the same note on every run, so stored vectors stay comparable', async () => {
    const [a] = await e.embed(['UST 2s10s steepener: Fed cuts priced too early']);
    const [b] = await new HashNgramEmbedder().embed(['UST 2s10s steepener: Fed cuts priced too early']);
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(e.id).toBe('hash-ngram-384');
    expect(a.length).toBe(384);
  });

  it('returns unit-length vectors so cosine equals dot product', async () => {
    const vs = await e.embed(['Brent backwardation widening', 'USDJPY carry unwind risk', 'x']);
    for (const v of vs) expect(dot(v, v)).toBeCloseTo(1, 5);
  });

  it('scores related notes above unrelated ones (shared words and word pieces)', async () => {
    const [q, near, inflected, far] = await e.embed([
      'curve steepener',
      'Adding to the 2s10s curve steepener after payrolls',
      'Treasury curve steepening continues',
      'Copper inventories at LME fell again',
    ]);
    expect(dot(q, near)).toBeGreaterThan(dot(q, far) + 0.2);
    expect(dot(q, inflected)).toBeGreaterThan(dot(q, far));
  });

  it('embeds empty and odd text without throwing (zero vector for nothing to match)', async () => {
    const [empty, lone] = await e.embed(['', 'abc\uD800def']);
    expect(dot(empty, empty)).toBe(0);
    expect(dot(lone, lone)).toBeCloseTo(1, 5);
  });
});

/** The JSON body an embeddings endpoint receives (OpenAI and Voyage share these fields). */
type EmbedRequest = { model: string; input: string[]; input_type?: string };
type Handler = (req: IncomingMessage, body: EmbedRequest, res: ServerResponse) => void;
let server: Server | undefined;
async function serve(handler: Handler): Promise<string> {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => handler(req, raw ? JSON.parse(raw) : {}, res));
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/v1`;
}
afterEach(async () => {
  if (!server) return;
  server.closeAllConnections();
  await new Promise((r) => server!.close(r));
  server = undefined;
});
const vec = (dims: number, seed: number) => Array.from({ length: dims }, (_, i) => Math.sin(seed + i));
function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

describe('OpenAI-compatible embedder against a local /v1/embeddings server', () => {
  it('sends batches with the key and model, and returns normalised vectors in input order', async () => {
    const seen: { auth?: string; model: string; n: number }[] = [];
    const base = await serve((req, body, res) => {
      seen.push({ auth: req.headers.authorization, model: body.model, n: body.input.length });
      // Reply out of order: the embedder must place vectors by `index`.
      const data = body.input.map((t: string, i: number) => ({ index: i, embedding: vec(8, t.length) })).reverse();
      reply(res, 200, { data });
    });
    const e = new OpenAICompatibleEmbedder({ apiKey: 'k1', baseURL: base, dims: 8, batchSize: 2, retryBaseMs: 1 });
    const out = await e.embed(['a', 'bb', 'ccc']);
    expect(seen).toEqual([
      { auth: 'Bearer k1', model: 'text-embedding-3-small', n: 2 },
      { auth: 'Bearer k1', model: 'text-embedding-3-small', n: 1 },
    ]);
    expect(out).toHaveLength(3);
    expect(dot(out[0], out[0])).toBeCloseTo(1, 5);
    expect(out[2][0]).toBeCloseTo(Math.sin(3) / Math.hypot(...vec(8, 3)), 5);
    expect(e.id).toBe('openai:text-embedding-3-small:8');
  });

  it('retries 429 and 500 with backoff, then succeeds', async () => {
    let calls = 0;
    const base = await serve((_req, body, res) => {
      calls++;
      if (calls === 1) return reply(res, 429, { error: 'slow down' }, { 'retry-after-ms': '5' });
      if (calls === 2) return reply(res, 500, { error: 'boom' });
      reply(res, 200, { data: body.input.map((_: string, i: number) => ({ index: i, embedding: vec(8, i) })) });
    });
    const e = new OpenAICompatibleEmbedder({ apiKey: 'k', baseURL: base, dims: 8, retryBaseMs: 1 });
    const out = await e.embed(['x']);
    expect(calls).toBe(3);
    expect(out[0].length).toBe(8);
  });

  it('gives up after the retry budget with a typed, retryable error naming the HTTP status', async () => {
    let calls = 0;
    const base = await serve((_req, _body, res) => {
      calls++;
      reply(res, 503, { error: 'down' });
    });
    const e = new OpenAICompatibleEmbedder({ apiKey: 'k', baseURL: base, dims: 8, maxRetries: 2, retryBaseMs: 1 });
    const err = await e.embed(['x']).catch((x) => x);
    expect(err).toBeInstanceOf(EmbedderError);
    expect(err.status).toBe(503);
    expect(err.retryable).toBe(true);
    expect(err.code).toBe('unavailable');
    expect(calls).toBe(3);
  });

  it('does not retry a rejected key and says to check Settings', async () => {
    let calls = 0;
    const base = await serve((_req, _body, res) => {
      calls++;
      reply(res, 401, { error: 'bad key' });
    });
    const e = new OpenAICompatibleEmbedder({ apiKey: 'k', baseURL: base, dims: 8, retryBaseMs: 1 });
    const err = await e.embed(['x']).catch((x) => x);
    expect(calls).toBe(1);
    expect(err.message).toMatch(/Settings/);
  });

  it('times out a server that never answers instead of hanging the write', async () => {
    const base = await serve(() => {
      /* never replies */
    });
    const e = new OpenAICompatibleEmbedder({ apiKey: 'k', baseURL: base, dims: 8, timeoutMs: 100, maxRetries: 1, retryBaseMs: 1 });
    const t0 = Date.now();
    const err = await e.embed(['x']).catch((x) => x);
    expect(err).toBeInstanceOf(EmbedderError);
    expect(err.message).toMatch(/did not answer within 100 ms/);
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('rejects vectors of the wrong size rather than storing them', async () => {
    const base = await serve((_req, body, res) => reply(res, 200, { data: body.input.map((_: string, i: number) => ({ index: i, embedding: vec(4, i) })) }));
    const e = new OpenAICompatibleEmbedder({ apiKey: 'k', baseURL: base, dims: 8, retryBaseMs: 1 });
    await expect(e.embed(['x'])).rejects.toThrow(/4 numbers.*configured for 8/);
  });
});

describe('Voyage embedder against a local server', () => {
  it('sends input_type query/document and the voyage model', async () => {
    const bodies: EmbedRequest[] = [];
    const base = await serve((_req, body, res) => {
      bodies.push(body);
      reply(res, 200, { data: body.input.map((_: string, i: number) => ({ index: i, embedding: vec(512, i) })) });
    });
    const e = new VoyageEmbedder({ apiKey: 'v', baseURL: base });
    await e.embed(['note'], 'document');
    await e.embed(['what about carry?'], 'query');
    expect(bodies.map((b) => [b.model, b.input_type])).toEqual([
      ['voyage-3-lite', 'document'],
      ['voyage-3-lite', 'query'],
    ]);
    expect(e.id).toBe('voyage:voyage-3-lite:512');
  });
});
