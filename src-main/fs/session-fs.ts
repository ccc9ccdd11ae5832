// A session's view of ForgeFS (`/session/` means its own folder), apart from ForgeFS itself: it only rewrites paths and delegates.
import type { ForgeFS } from './forge-fs';
import { routePath } from './paths';
import type { ListOptions, WriteContext } from './types';

/** Maps `/session/tasks.md` to `/session/<id>/tasks.md`; every other path passes through. */
export class SessionFS {
  constructor(
    readonly fs: ForgeFS,
    readonly sessionId: string,
  ) {
    routePath(`/session/${sessionId}/`);
  }
  resolve(path: string): string {
    return typeof path === 'string' && (path === '/session' || path.startsWith('/session/'))
      ? `/session/${this.sessionId}/${path.slice('/session/'.length)}`
      : path;
  }
  readFile = (p: string) => this.fs.readFile(this.resolve(p));
  readLines = (p: string, s: number, e: number) => this.fs.readLines(this.resolve(p), s, e);
  exists = (p: string) => this.fs.exists(this.resolve(p));
  isDir = (p: string) => this.fs.isDir(this.resolve(p));
  listDir = (p: string, q?: string, o?: ListOptions) => this.fs.listDir(this.resolve(p), q, o);
  writeFile = (p: string, c: string, ctx: WriteContext) => this.fs.writeFile(this.resolve(p), c, { ...ctx, sessionId: ctx.sessionId ?? this.sessionId });
}
