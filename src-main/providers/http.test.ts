import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../store/open';
import { ResponseCache, cacheKey } from './cache';
import { HttpStatusError, httpGet, redactUrl } from './http';
import { ProviderError } from './provider';
import { type LocalServer, sendJson, startLocalServer } from './testing';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function failure(p: Promise<unknown>): Promise<ProviderError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ProviderError);
    return e as ProviderError;
  }
  throw new Error('expected the request to fail');
}

describe('httpGet against a real local server', () => {
  it('waits out a 429 for its Retry-After and then returns the 200 (a rate-limited vendor still answers)', async () => {
    server = await startLocalServer((_req, res, n) => {
      if (n === 1) sendJson(res, 429, { error: 'slow down' }, { 'retry-after': '1' });
      else sendJson(res, 200, { value: 42 });
    });
    const t0 = Date.now();
    const r = await httpGet({ url: `${server.url}/series`, accept: 'json' });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ value: 42 });
    expect(server.requests.length).toBe(2);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
  });

  it('does not wait out a Retry-After longer than the cap: fails at once as rate_limited', async () => {
    server = await startLocalServer((_req, res) => sendJson(res, 429, {}, { 'retry-after': '120' }));
    const e = await failure(httpGet({ url: `${server.url}/x`, accept: 'json' }));
    expect(e.kind).toBe('rate_limited');
    expect(e.message).toContain('retry after 120 s');
    expect(server.requests.length).toBe(1);
  });

  it('gives up after the retries when the server keeps answering 500, saying so', async () => {
    server = await startLocalServer((_req, res) => sendJson(res, 500, { error: 'boom' }));
    const e = await failure(httpGet({ url: `${server.url}/obs`, accept: 'json', retryBaseMs: 5 }));
    expect(e.kind).toBe('unavailable');
    expect(e.message).toMatch(/answered HTTP 500/);
    expect(server.requests.length).toBe(3);
  });

  it('with checkRedirect, follows a redirect it allows and stops before requesting one it refuses (more than five is a loop)', async () => {
    server = await startLocalServer((req, res) => {
      if (req.url === '/old') res.writeHead(301, { location: '/new' }).end();
      else if (req.url === '/new') sendJson(res, 200, { moved: true });
      else if (req.url === '/away') res.writeHead(302, { location: 'http://10.0.0.7/secret' }).end();
      else res.writeHead(302, { location: '/loop' }).end();
    });
    const seen: string[] = [];
    const check = (target: URL) => {
      seen.push(target.pathname);
      if (target.hostname === '10.0.0.7') throw new Error('10.0.0.7 is private');
    };
    const ok = await httpGet({ url: `${server.url}/old`, accept: 'json', checkRedirect: check });
    expect(ok.json).toEqual({ moved: true });
    expect(seen).toEqual(['/new']);
    const refused = await failure(httpGet({ url: `${server.url}/away`, accept: 'json', checkRedirect: check }));
    expect(refused.message).toMatch(/redirected to a place that cannot be read \(10\.0\.0\.7 is private\)/);
    const loop = await failure(httpGet({ url: `${server.url}/loop`, accept: 'json', checkRedirect: () => {} }));
    expect(loop.message).toMatch(/redirected more than 5 times/);
    expect(server.requests.filter((r) => r.url === '/loop')).toHaveLength(6);
  });

  it('retries a connection reset and returns the next answer', async () => {
    server = await startLocalServer((req, res, n) => {
      if (n === 1) req.socket.destroy();
      else sendJson(res, 200, [1, 2]);
    });
    const r = await httpGet({ url: `${server.url}/reset`, accept: 'json', retryBaseMs: 5 });
    expect(r.json).toEqual([1, 2]);
    expect(server.requests.length).toBe(2);
  });

  it('refuses malformed JSON as bad_response without retrying', async () => {
    server = await startLocalServer((_req, res) => sendJson(res, 200, '{"observations": [ {"date": '));
    const e = await failure(httpGet({ url: `${server.url}/bad`, accept: 'json' }));
    expect(e.kind).toBe('bad_response');
    expect(e.message).toContain('malformed JSON');
    expect(server.requests.length).toBe(1);
  });

  it('times out a server that never answers, within the timeout and not three times over', async () => {
    server = await startLocalServer(async (_req, res) => {
      await new Promise((r) => setTimeout(r, 3000));
      sendJson(res, 200, {});
    });
    const e = await failure(httpGet({ url: `${server.url}/slow`, accept: 'json', timeoutMs: 200 }));
    expect(e.kind).toBe('unavailable');
    expect(e.message).toContain('did not answer within 0.2 s');
    // A timeout is not retried: at most one request (on a busy machine the 0.2 s can pass before the server sees it).
    expect(server.requests.length).toBeLessThanOrEqual(1);
  });

  it('times out a body that trickles in past the timeout (the timeout covers the whole exchange)', async () => {
    server = await startLocalServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"a":');
      await new Promise((r) => setTimeout(r, 3000));
      res.end('1}');
    });
    const e = await failure(httpGet({ url: `${server.url}/trickle`, accept: 'json', timeoutMs: 300 }));
    expect(e.message).toContain('did not answer within 0.3 s');
  });

  it('refuses a wrong content type (an HTML error page where JSON was expected)', async () => {
    server = await startLocalServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>Maintenance</body></html>');
    });
    const e = await failure(httpGet({ url: `${server.url}/page`, accept: 'json' }));
    expect(e.kind).toBe('bad_response');
    expect(e.message).toContain('sent text/html where json was expected');
  });

  it('reads a CSV download whatever CSV type the vendor names (Treasury application/csv, ECB SDMX +csv)', async () => {
    const types: Record<string, string> = {
      '/treasury': 'application/csv',
      '/ecb': 'application/vnd.sdmx.data+csv; version=1.0.0',
      '/old': 'application/x-csv',
    };
    server = await startLocalServer((req, res) => {
      res.writeHead(200, { 'content-type': types[req.url ?? ''] ?? 'application/zip' });
      res.end('Date,1 Mo\n01/02/2024,5.55\n');
    });
    for (const path of Object.keys(types)) {
      const ok = await httpGet({ url: `${server.url}${path}`, accept: 'text' });
      expect(ok.bytes.toString()).toContain('5.55');
    }
    // Still refused: a type that is not text at all, even if the bytes look like text.
    expect((await failure(httpGet({ url: `${server.url}/zip`, accept: 'text' }))).kind).toBe('bad_response');
  });

  it('accepts a PDF sent as octet-stream only when the bytes are a PDF', async () => {
    server = await startLocalServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(req.url === '/real.pdf' ? '%PDF-1.7\n...' : 'not a pdf');
    });
    const ok = await httpGet({ url: `${server.url}/real.pdf`, accept: 'pdf' });
    expect(ok.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const e = await failure(httpGet({ url: `${server.url}/fake.pdf`, accept: 'pdf' }));
    expect(e.kind).toBe('bad_response');
  });

  it('refuses an oversized body, declared or streamed without a length', async () => {
    server = await startLocalServer((req, res) => {
      const big = 'x'.repeat(4096);
      if (req.url === '/declared') {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(big.length) });
        res.end(big);
      } else {
        res.writeHead(200, { 'content-type': 'text/plain' });
        for (let i = 0; i < 4; i++) res.write(big.slice(0, 1024));
        res.end(big.slice(0, 1024));
      }
    });
    for (const path of ['/declared', '/chunked']) {
      const e = await failure(httpGet({ url: `${server.url}${path}`, accept: 'text', maxBytes: 2048 }));
      expect(e.kind).toBe('bad_response');
      expect(e.message).toContain('narrow the request');
    }
  });

  it('never shows the API key in an error, even when the vendor echoes it back', async () => {
    server = await startLocalServer((req, res) => sendJson(res, 400, { error_message: `Bad request ${req.url} for key sekrit-key-123` }));
    const e = await failure(httpGet({ url: `${server.url}/fred/series?api_key=sekrit-key-123&series_id=X`, accept: 'json', secretParams: ['api_key'] }));
    expect(e).toBeInstanceOf(HttpStatusError);
    expect(e.kind).toBe('bad_params');
    const s = e as HttpStatusError;
    expect(s.status).toBe(400);
    expect(`${s.message} ${s.body}`).not.toContain('sekrit-key-123');
    expect(s.body).toContain('api_key=***');
    expect(redactUrl('https://x/y?api_key=abc&b=1', ['api_key'])).toBe('https://x/y?api_key=***&b=1');
  });

  it('maps 404 to not_found and 401 to not_configured', async () => {
    server = await startLocalServer((req, res) => sendJson(res, req.url === '/missing' ? 404 : 401, {}));
    expect((await failure(httpGet({ url: `${server.url}/missing`, accept: 'json' }))).kind).toBe('not_found');
    expect((await failure(httpGet({ url: `${server.url}/auth`, accept: 'json' }))).kind).toBe('not_configured');
  });

  it('refuses a non-http URL before any request', async () => {
    const e = await failure(httpGet({ url: 'file:///etc/passwd', accept: 'text' }));
    expect(e.kind).toBe('bad_params');
  });

  it('stops waiting when the signal aborts', async () => {
    server = await startLocalServer(async (_req, res) => {
      await new Promise((r) => setTimeout(r, 3000));
      sendJson(res, 200, {});
    });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    // Had the abort been ignored, the server's answer (3 s later) would have come back as a success.
    const e = await failure(httpGet({ url: `${server.url}/slow`, accept: 'json', signal: ac.signal }));
    expect(e.message).toContain('Stopped');
  });
});

describe('ResponseCache', () => {
  it('keeps a success until its time-to-live and forgets it after', () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const db = openDatabase(':memory:');
    const cache = new ResponseCache(db, () => now);
    cache.put('k', 'v1', 60_000);
    expect(cache.get('k')).toBe('v1');
    now = new Date('2026-01-01T00:01:00.001Z');
    expect(cache.get('k')).toBeNull();
    expect(db.prepare('SELECT count(*) AS n FROM provider_cache').get()).toEqual({ n: 0 });
    db.close();
  });

  it('stores nothing from a failed call, and serves the next success without asking the server again', async () => {
    let fail = true;
    server = await startLocalServer((_req, res) => (fail ? sendJson(res, 500, {}) : sendJson(res, 200, { v: 1 })));
    const db = openDatabase(':memory:');
    const cache = new ResponseCache(db);
    const key = cacheKey('economic', `${server.url}/obs`, { series: 'X' });
    expect(key).toMatch(/^economic:[0-9a-f]{64}$/);
    const load = async () => (await httpGet({ url: `${server!.url}/obs`, accept: 'json', retries: 0 })).text;
    await expect(cache.through(key, 60_000, load)).rejects.toBeInstanceOf(ProviderError);
    expect(cache.get(key)).toBeNull();
    fail = false;
    expect(await cache.through(key, 60_000, load)).toEqual({ value: '{"v":1}', cached: false });
    expect(await cache.through(key, 60_000, load)).toEqual({ value: '{"v":1}', cached: true });
    expect(server.requests.length).toBe(2);
    db.close();
  });
});
