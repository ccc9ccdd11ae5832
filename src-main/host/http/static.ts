import { createReadStream, existsSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.map': 'application/json; charset=utf-8',
};

/** Resolve a URL path inside the renderer folder; undefined when it would escape or is missing. */
export function resolveStatic(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const rel = normalize(decoded).replace(/^([/\\])+/, '');
  const full = resolve(root, rel);
  if (full !== resolve(root) && !full.startsWith(resolve(root) + sep)) return undefined;
  if (!existsSync(full)) return undefined;
  const st = statSync(full);
  if (st.isDirectory()) {
    const index = join(full, 'index.html');
    return existsSync(index) ? index : undefined;
  }
  return full;
}

export function sendFile(res: ServerResponse, file: string, headers: Record<string, string>): void {
  const type = types[extname(file).toLowerCase()] ?? 'application/octet-stream';
  res.writeHead(200, {
    ...headers,
    'content-type': type,
    // index.html always revalidates; hashed assets may be cached.
    'cache-control': file.endsWith('.html') ? 'no-store' : 'private, max-age=3600',
  });
  createReadStream(file).pipe(res);
}
