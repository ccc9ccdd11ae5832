import { createReadStream, existsSync, statSync } from 'node:fs';
import { stat as statAsync } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, relative, resolve, sep } from 'node:path';
import { contentTypeOf } from '../../common/content-type';
import { chooseEncoding, type CompressedFiles } from './compress';

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

/** Text formats worth compressing; images and woff2 are compressed already. */
const compressible = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.map', '.ttf', '.ico']);

/**
 * Hashed build output (`assets/index-BAfgDPcg.js`) never changes under its name, so the browser may
 * keep it for a year; index.html names the current hashes, so it is revalidated on every load.
 */
export function cacheControlFor(root: string, file: string): string {
  const rel = relative(root, file);
  return rel.startsWith(`assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/** Weak: the br, gzip and plain bodies of one file are the same content, so they share one tag. */
function etagFor(stat: { size: number; mtimeMs: number }): string {
  return `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

/**
 * Sends a renderer file: brotli or gzip when the browser accepts it (from `compressed`, made once per
 * file version), 304 when the browser's copy is current, the file as is otherwise.
 */
export async function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  file: string,
  options: { root: string; headers: Record<string, string>; compressed: CompressedFiles },
): Promise<void> {
  const stat = await statAsync(file);
  const ext = extname(file).toLowerCase();
  const etag = etagFor(stat);
  const headers: Record<string, string> = {
    ...options.headers,
    'cache-control': cacheControlFor(options.root, file),
    etag,
  };
  const canCompress = compressible.has(ext);
  // Caches must not hand a brotli body to a browser that asked for none.
  if (canCompress) headers.vary = 'Accept-Encoding';
  if (etagMatches(req.headers['if-none-match'], etag)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  headers['content-type'] = contentTypeOf(file);
  const encoding = canCompress ? chooseEncoding(req.headers['accept-encoding']) : 'identity';
  const body = encoding === 'identity' ? null : await options.compressed.get(file, stat, encoding);
  if (encoding !== 'identity' && body) {
    res.writeHead(200, { ...headers, 'content-encoding': encoding, 'content-length': String(body.length) });
    res.end(req.method === 'HEAD' ? undefined : body);
    return;
  }
  res.writeHead(200, { ...headers, 'content-length': String(stat.size) });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file).pipe(res);
}
