import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempCore } from '../testing';
import { chooseEncoding } from './compress';
import { startHeadlessHost, type HeadlessHost } from './server';

let host: HeadlessHost;
let t: ReturnType<typeof tempCore>;
let renderer: string;

/** A script big and repetitive enough that compression matters, as a real bundle is. */
const bundle = Array.from({ length: 4000 }, (_, i) => `export const row${i} = { id: ${i}, label: "Views row ${i % 97}" };`).join('\n');
const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

function get(path: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    // A raw request: node:http neither adds Accept-Encoding nor decompresses, so the bytes are the wire's.
    const req = request({ host: '127.0.0.1', port: host.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const auth = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${host.token}`, ...extra });

beforeAll(async () => {
  t = tempCore();
  renderer = mkdtempSync(join(tmpdir(), 'forge-static-'));
  mkdirSync(join(renderer, 'assets'));
  writeFileSync(join(renderer, 'index.html'), `<!doctype html><title>Forge</title><script type="module" src="./assets/index-AbC123xy.js"></script>`);
  writeFileSync(join(renderer, 'assets', 'index-AbC123xy.js'), bundle);
  writeFileSync(join(renderer, 'assets', 'logo-Zz99yy00.png'), png);
  host = await startHeadlessHost({ core: t.core, rendererDir: renderer });
});

afterAll(async () => {
  await host.close();
  await t.dispose();
  rmSync(renderer, { recursive: true, force: true });
});

describe('choosing the encoding from Accept-Encoding', () => {
  it('prefers brotli, falls back to gzip, and honours q=0 refusals', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(chooseEncoding('gzip, deflate')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('gzip;q=1.0, br;q=0.5')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('*, br;q=0, gzip;q=0')).toBe('identity');
    expect(chooseEncoding('deflate')).toBe('identity');
    expect(chooseEncoding(undefined)).toBe('identity');
    expect(chooseEncoding('')).toBe('identity');
  });
});

describe('static files from the headless host', () => {
  it('sends a script brotli-compressed to a browser that accepts it, and it decompresses to the file', async () => {
    const r = await get('/assets/index-AbC123xy.js', auth({ 'accept-encoding': 'gzip, deflate, br' }));
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers.vary).toBe('Accept-Encoding');
    expect(Number(r.headers['content-length'])).toBe(r.body.length);
    // A PM on a slow link would otherwise download the whole bundle uncompressed.
    expect(r.body.length).toBeLessThan(bundle.length / 4);
    expect(brotliDecompressSync(r.body).toString('utf8')).toBe(bundle);
    expect(r.headers['content-type']).toMatch(/javascript/);
  });

  it('falls back to gzip when brotli is not accepted', async () => {
    const r = await get('/assets/index-AbC123xy.js', auth({ 'accept-encoding': 'gzip' }));
    expect(r.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(r.body).toString('utf8')).toBe(bundle);
  });

  it('sends the file as is when the client accepts no compression', async () => {
    const r = await get('/assets/index-AbC123xy.js', auth());
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.headers.vary).toBe('Accept-Encoding');
    expect(r.body.toString('utf8')).toBe(bundle);
    expect(Number(r.headers['content-length'])).toBe(bundle.length);
  });

  it('does not recompress an image, which is compressed already', async () => {
    const r = await get('/assets/logo-Zz99yy00.png', auth({ 'accept-encoding': 'br, gzip' }));
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.body.equals(png)).toBe(true);
  });

  it('lets the browser keep hashed assets for a year but revalidates index.html and app routes', async () => {
    const asset = await get('/assets/index-AbC123xy.js', auth());
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const index = await get('/', auth({ 'accept-encoding': 'br' }));
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(index.body).toString('utf8')).toContain('<title>Forge</title>');
    // A deep link (#-less SPA path) serves index.html, so it must not be cached for a year either.
    const deep = await get('/views', auth());
    expect(deep.headers['cache-control']).toBe('no-cache');
    expect(deep.body.toString('utf8')).toContain('<title>Forge</title>');
  });

  it('answers 304 when the browser already holds the current file, and 200 with the new file after a rebuild', async () => {
    const file = join(renderer, 'index.html');
    const first = await get('/', auth({ 'accept-encoding': 'br' }));
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"/);
    const again = await get('/', auth({ 'accept-encoding': 'br', 'if-none-match': etag }));
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);

    // A rebuild rewrites index.html: the browser's tag no longer matches and the cached brotli copy is not reused.
    writeFileSync(file, '<!doctype html><title>Forge rebuilt</title>');
    const later = new Date(Date.now() + 5_000);
    utimesSync(file, later, later);
    const fresh = await get('/', auth({ 'accept-encoding': 'br', 'if-none-match': etag }));
    expect(fresh.status).toBe(200);
    expect(fresh.headers.etag).not.toBe(etag);
    expect(brotliDecompressSync(fresh.body).toString('utf8')).toContain('Forge rebuilt');
    expect(readFileSync(file, 'utf8')).toContain('Forge rebuilt');
  });

  it('answers HEAD with the headers and no body', async () => {
    const r = await get('/assets/index-AbC123xy.js', auth({ 'accept-encoding': 'br' }), 'HEAD');
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(Number(r.headers['content-length'])).toBeGreaterThan(0);
    expect(r.body.length).toBe(0);
  });

  it('keeps the token, Host and Origin rules: compression and 304 are never given to a caller that would be refused', async () => {
    const noToken = await get('/assets/index-AbC123xy.js', { 'accept-encoding': 'br' });
    expect(noToken.status).toBe(401);
    expect(noToken.body.toString('utf8')).not.toContain('row1');
    const first = await get('/', auth());
    const probe = await get('/', { 'if-none-match': String(first.headers.etag) });
    expect(probe.status).toBe(401);
    const rebinding = await get('/assets/index-AbC123xy.js', auth({ host: `attacker.example:${host.port}`, 'accept-encoding': 'br' }));
    expect(rebinding.status).toBe(403);
    const foreign = await get('/assets/index-AbC123xy.js', auth({ origin: 'http://evil.example', 'accept-encoding': 'br' }));
    expect(foreign.status).toBe(403);
    const cookie = await get(`/assets/index-AbC123xy.js?token=${host.token}`, { 'accept-encoding': 'gzip' });
    expect(String(cookie.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict/);
    expect(gunzipSync(cookie.body).toString('utf8')).toBe(bundle);
  });
});
