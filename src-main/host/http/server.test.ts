import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { tempCore } from '../testing';
import { startHeadlessHost, type HeadlessHost } from './server';

let host: HeadlessHost;
let t: ReturnType<typeof tempCore>;
let renderer: string;

/** A raw HTTP request so tests can send any Host/Origin header a browser or attacker could. */
function raw(opts: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer }) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: host.port, method: opts.method ?? 'GET', path: opts.path, headers: opts.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    if (opts.body) req.write(opts.body);
    req.end();
  });
}

const json = (extra: Record<string, string> = {}) => ({ 'content-type': 'application/json', authorization: `Bearer ${host.token}`, ...extra });

beforeAll(async () => {
  t = tempCore();
  renderer = mkdtempSync(join(tmpdir(), 'forge-renderer-'));
  mkdirSync(join(renderer, 'assets'));
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Forge</title>');
  writeFileSync(join(renderer, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(tmpdir(), 'forge-outside-secret.txt'), 'TOP-SECRET-CONTENT');
  host = await startHeadlessHost({ core: t.core, rendererDir: renderer });
});

afterAll(async () => {
  await host.close();
  await t.dispose();
  rmSync(renderer, { recursive: true, force: true });
});

describe('headless host', () => {
  it('binds to 127.0.0.1 only and refuses any other interface', async () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await expect(startHeadlessHost({ core: t.core, host: '0.0.0.0' })).rejects.toThrow(/only on this machine/);
  });

  it('serves a procedure with the token', async () => {
    const r = await raw({ method: 'POST', path: '/api/app/health', headers: json(), body: '{}' });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ ok: true, value: { status: 'ok' } });
  });

  it('refuses a request without the token (401)', async () => {
    const r = await raw({ method: 'POST', path: '/api/app/health', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(r.status).toBe(401);
    expect(JSON.parse(r.body).error.code).toBe('unauthorized');
    const wrong = await raw({ method: 'POST', path: '/api/app/health', headers: json({ authorization: 'Bearer nope' }), body: '{}' });
    expect(wrong.status).toBe(401);
  });

  it('refuses a foreign Origin even with the token (403), so other sites cannot drive it', async () => {
    const r = await raw({ method: 'POST', path: '/api/settings/get', headers: json({ origin: 'http://evil.example' }), body: '{}' });
    expect(r.status).toBe(403);
    const own = await raw({ method: 'POST', path: '/api/settings/get', headers: json({ origin: host.url }), body: '{}' });
    expect(own.status).toBe(200);
  });

  it('refuses a rebinding Host header (403)', async () => {
    const r = await raw({ method: 'POST', path: '/api/app/info', headers: json({ host: `attacker.example:${host.port}` }), body: '{}' });
    expect(r.status).toBe(403);
    const dotted = await raw({ method: 'POST', path: '/api/app/info', headers: json({ host: '127.0.0.1.nip.io' }), body: '{}' });
    expect(dotted.status).toBe(403);
  });

  it('works behind a port forward (Host names this machine on another port) and still needs the token there', async () => {
    const forwarded = `localhost:${host.port + 1}`;
    const r = await raw({ method: 'POST', path: '/api/app/health', headers: json({ host: forwarded, origin: `http://${forwarded}` }), body: '{}' });
    expect(r.status).toBe(200);
    expect((await raw({ method: 'POST', path: '/api/app/health', headers: json({ host: '[::1]:8443' }), body: '{}' })).status).toBe(200);
    const noToken = await raw({ method: 'POST', path: '/api/app/health', headers: { host: forwarded, 'content-type': 'application/json' }, body: '{}' });
    expect(noToken.status).toBe(401);
    // Another local server's page: the browser would send our cookie (cookies ignore ports), so its Origin is refused.
    const otherPage = await raw({
      method: 'POST',
      path: '/api/app/health',
      headers: json({ host: `localhost:${host.port}`, origin: 'http://localhost:3000' }),
      body: '{}',
    });
    expect(otherPage.status).toBe(403);
  });

  it('answers a malformed percent escape in the procedure name with 400 and the error envelope, not 500', async () => {
    for (const path of ['/api/memory%ZZlist', '/api/%E0%A4%A']) {
      const r = await raw({ method: 'POST', path, headers: json(), body: '{}' });
      expect(r.status, path).toBe(400);
      expect(r.headers['content-type']).toMatch(/application\/json/);
      const body = JSON.parse(r.body);
      expect(body.ok).toBe(false);
      expect(body.error.code).toBe('invalid_input');
      expect(body.error.message).toMatch(/malformed percent escape/);
    }
    // A well-formed escape still reaches the procedure.
    const ok = await raw({ method: 'POST', path: '/api/app%2Fhealth', headers: json(), body: '{}' });
    expect(ok.status).toBe(200);
  });

  it('caps request bodies (413) and rejects non-JSON bodies with a clear error', async () => {
    const big = JSON.stringify({ settings: { displayName: 'x'.repeat(2 * 1024 * 1024) } });
    const r = await raw({ method: 'POST', path: '/api/settings/set', headers: json(), body: big });
    expect(r.status).toBe(413);
    const bad = await raw({ method: 'POST', path: '/api/settings/set', headers: json(), body: '{"settings":' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.message).toMatch(/not valid JSON/);
    const form = await raw({
      method: 'POST',
      path: '/api/settings/set',
      headers: { authorization: `Bearer ${host.token}`, 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(form.status).toBe(415);
  });

  it('returns invalid_input as 400 with the envelope', async () => {
    const r = await raw({ method: 'POST', path: '/api/settings/set', headers: json(), body: JSON.stringify({ settings: { theme: 'neon' } }) });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body).error).toMatchObject({ code: 'invalid_input', issues: [{ path: ['settings', 'theme'] }] });
  });

  it('serves the renderer with the token, sets an HttpOnly cookie, and then serves assets by cookie', async () => {
    const first = await raw({ path: `/?token=${host.token}` });
    expect(first.status).toBe(200);
    expect(first.body).toContain('<title>Forge</title>');
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const asset = await raw({ path: '/assets/app.js', headers: { cookie: cookie.split(';')[0] } });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    const noToken = await raw({ path: '/' });
    expect(noToken.status).toBe(401);
    expect(noToken.body).toMatch(/forge serve/);
  });

  it('never serves a file outside the renderer folder', async () => {
    const r = await raw({ path: `/..%2f..%2f..%2f${encodeURIComponent('forge-outside-secret.txt')}?token=${host.token}` });
    expect(r.status).toBe(404);
    expect(r.body).not.toContain('TOP-SECRET-CONTENT');
  });

  it('pushes core events over /events to a client with the token, and refuses one without', async () => {
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${host.port}/events`);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
    });
    expect(refused).toBe(401);

    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/events?token=${host.token}`);
    await new Promise((resolve, reject) => {
      ws.on('open', resolve);
      ws.on('error', reject);
    });
    const got = new Promise<{ event: string; payload: { settings: { displayName: string } } }>((resolve) =>
      ws.on('message', (d) => resolve(JSON.parse(String(d)))),
    );
    await raw({ method: 'POST', path: '/api/settings/set', headers: json(), body: JSON.stringify({ settings: { displayName: 'Live' } }) });
    const message = await got;
    expect(message.event).toBe('settings/changed');
    expect(message.payload.settings.displayName).toBe('Live');
    ws.close();
  });

  it('refuses a WebSocket from a foreign origin', async () => {
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${host.port}/events?token=${host.token}`, { origin: 'http://evil.example' });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
    });
    expect(status).toBe(403);
  });
});
