import { extname } from 'node:path';

/**
 * The one table of content types for the renderer's files, shared by the desktop app's `app://`
 * protocol (app/protocol.ts) and the headless host's static server (host/http/static.ts), so the
 * same file is served with the same type by both. Anything not listed is sent as
 * application/octet-stream, which `X-Content-Type-Options: nosniff` keeps from being run.
 */
const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

export function contentTypeOf(file: string): string {
  return TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}
