import { z } from 'zod';
import { atDepth, type Listing, type ReadDepth } from '../fs';
import { formatBook, readBook } from '../guardrails';
import type { AnalystToolContext } from './context';
import { defineTool } from './define';

/** A full read larger than this is cut, with a note: one file should not flood the context. */
export const MAX_READ_CHARS = 40_000;
/** Where the computed book reads as a file. */
export const BOOK_PATH = '/portfolio/book.md';

/** Seed §3.1: memory opens at its header, session results and fetched context at their summary. */
export function defaultDepth(path: string): ReadDepth {
  const p = path.replace(/^\/session\/[A-Za-z0-9_-]+\//, '/session/');
  if (p.startsWith('/memory/') && !p.startsWith('/memory/.archive/')) return 'header';
  if (p.startsWith('/session/results/') || p.startsWith('/session/context/')) return 'summary';
  return 'full';
}

export function formatListing(l: Listing): string {
  const more = l.total > l.offset + l.entries.length ? ` — showing ${l.entries.length}; narrow with query` : '';
  const lines = [`Directory: ${l.path} (${l.totalCapped ? `more than ${l.total.toLocaleString('en-US')}` : l.total} items${more})`];
  for (const e of l.entries) lines.push(`  ${e.name}${e.title ? `  ${e.title}` : ''}${e.meta ? `  [${e.meta}]` : ''}`);
  return lines.join('\n');
}

export const readTool = defineTool({
  name: 'read',
  description:
    'Read a file or list a folder. depth: header (default in /memory/), summary (default for session results and context), full (elsewhere). Folder query: words, key:value, key>=N, since:YYYY-MM(-DD).',
  input: z.object({
    path: z.string().min(1).max(1000),
    depth: z.enum(['header', 'summary', 'full']).optional(),
    query: z.string().max(2000).optional(),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  run(input, ctx: AnalystToolContext) {
    const fs = ctx.fs;
    const resolved = fs.resolve(input.path);
    if (fs.isDir(input.path) || input.path.endsWith('/')) {
      const listing = fs.listDir(input.path, input.query, { limit: 100 });
      if (listing.path === '/portfolio/')
        listing.entries.unshift({
          name: 'book.md',
          path: BOOK_PATH,
          isDir: false,
          id: null,
          title: 'Computed book (read-only)',
          meta: 'gross, net, duration, factors, limits in use',
          status: null,
          updatedAt: null,
        });
      return { content: formatListing(listing) };
    }
    // The book is computed, never stored: reading it here (or over MCP) shows what the guardrails check against.
    if (fs.fs.normalize(resolved) === BOOK_PATH) return { content: formatBook(readBook(fs.fs, ctx.limits())) };
    const full = fs.readFile(input.path);
    const depth = input.depth ?? defaultDepth(resolved);
    let text = atDepth(full, depth);
    if (text.length > MAX_READ_CHARS) {
      text = `${text.slice(0, MAX_READ_CHARS)}\n[cut at ${MAX_READ_CHARS} of ${text.length} characters — search or compact it for the part you need]`;
    }
    // Fetched documents came from outside Forge: framed as data wherever they are read back.
    const untrusted = /^\/session\/[A-Za-z0-9_-]+\/context\/ctx_\d+\.md$/.test(resolved);
    return { content: text, untrusted };
  },
});
