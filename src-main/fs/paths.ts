import { InvalidInputError } from '../common/errors';
import { categoryInfo, CATEGORIES } from './categories';

/** Where a ForgeFS path leads. Folders end in `/`; files do not. */
export type Route =
  | { root: 'top' }
  | { root: 'memory'; kind: 'root' }
  | { root: 'memory'; kind: 'category'; category: string }
  | { root: 'memory'; kind: 'record'; category: string; id: string | null }
  | { root: 'memory'; kind: 'archive-root' }
  | { root: 'memory'; kind: 'archive-category'; category: string }
  | { root: 'memory'; kind: 'archive-file'; category: string; name: string }
  | { root: 'skills'; rel: string; dir: boolean }
  | { root: 'portfolio'; name: string | null }
  | { root: 'session'; sessionId: string | null; rel: string; dir: boolean };

const SEGMENT_RE = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
const SESSION_ID_RE = /^[A-Za-z0-9_-]{1,80}$/;
const FILE_RE = /^[A-Za-z0-9_][A-Za-z0-9_.-]*\.md$/;
const ROOTS = ['memory', 'skills', 'portfolio', 'session'];

function bad(path: string, problem: string): InvalidInputError {
  return new InvalidInputError(`The path "${path.slice(0, 200)}" ${problem}`, [{ path: ['path'], message: problem }]);
}

/**
 * Normalises a path (collapses `//`) and refuses anything that could step outside Forge's
 * folders: `..`, `.`, NUL bytes, backslashes, relative paths and unknown roots.
 */
export function normalizePath(input: string): { path: string; segments: string[]; dir: boolean } {
  if (typeof input !== 'string' || input.length === 0) throw new InvalidInputError('A path is required, e.g. /memory/views/.');
  if (input.length > 1000) throw bad(input, 'is too long (over 1000 characters).');
  if (input.includes('\0')) throw bad(input.replace(/\0/g, '\\0'), 'contains a NUL byte; remove it.');
  if (input.includes('\\')) throw bad(input, 'uses backslashes; ForgeFS paths use `/`, e.g. /memory/views/V-001.md.');
  if (!input.startsWith('/')) throw bad(input, 'must start with `/`, e.g. /memory/views/V-001.md.');
  const dir = input.endsWith('/');
  const segments = input.split('/').filter((s) => s !== '');
  for (const s of segments) {
    if (s === '..' || s === '.') throw bad(input, 'steps outside its folder (`.` or `..`); use a full path from the root.');
  }
  const path = '/' + segments.join('/') + (dir && segments.length ? '/' : '');
  return { path, segments, dir: dir || segments.length === 0 };
}

/** Resolves a path to its backend and the parts that backend needs. */
export function routePath(input: string): { path: string; route: Route } {
  const { path, segments, dir } = normalizePath(input);
  if (segments.length === 0) return { path: '/', route: { root: 'top' } };
  const [root, ...rest] = segments;
  if (!ROOTS.includes(root)) throw bad(input, `is not in a Forge folder; use one of ${ROOTS.map((r) => `/${r}/`).join(', ')}.`);
  const asDir = (p: string) => (p.endsWith('/') ? p : p + '/');

  if (root === 'memory') {
    if (rest.length === 0) return { path: '/memory/', route: { root: 'memory', kind: 'root' } };
    if (rest[0] === '.archive') {
      if (rest.length === 1) return { path: '/memory/.archive/', route: { root: 'memory', kind: 'archive-root' } };
      const category = rest[1];
      if (!categoryInfo(category)) throw bad(input, `names an unknown memory folder "${category}"; use one of ${CATEGORIES.map((c) => c.name).join(', ')}.`);
      if (rest.length === 2) return { path: asDir(path), route: { root: 'memory', kind: 'archive-category', category } };
      if (rest.length === 3 && !dir && FILE_RE.test(rest[2])) {
        return { path, route: { root: 'memory', kind: 'archive-file', category, name: rest[2] } };
      }
      throw bad(input, 'is not an archived version; archived files look like /memory/.archive/views/V-001_20260101T120000000Z.md.');
    }
    const category = rest[0];
    const info = categoryInfo(category);
    if (!info) throw bad(input, `names an unknown memory folder "${category}"; use one of ${CATEGORIES.map((c) => c.name).join(', ')}.`);
    if (rest.length === 1) return { path: asDir(path), route: { root: 'memory', kind: 'category', category } };
    if (rest.length > 2 || dir) throw bad(input, `goes deeper than a memory folder; records sit directly in /memory/${category}/.`);
    const file = rest[1];
    if (!file.endsWith('.md')) throw bad(input, 'must end in .md, e.g. V-001.md.');
    const stem = file.slice(0, -3);
    if (stem === 'new') {
      if (!info.prefix) throw bad(input, `cannot use new.md: ${info.noun}s are named, e.g. /memory/calibration/macro_regime.md.`);
      return { path, route: { root: 'memory', kind: 'record', category, id: null } };
    }
    if (info.prefix) {
      if (!(stem.startsWith(`${info.prefix}-`) && /^\d{1,9}$/.test(stem.slice(info.prefix.length + 1)))) {
        throw bad(input, `is not a ${info.noun} file name; use ${info.prefix}-NNN.md (e.g. ${info.prefix}-001.md) or new.md for the next id.`);
      }
    } else if (!/^[A-Za-z0-9_][A-Za-z0-9_-]*$/.test(stem)) {
      throw bad(input, 'is not a valid file name; use letters, digits and underscores, e.g. macro_regime.md.');
    }
    return { path, route: { root: 'memory', kind: 'record', category, id: stem } };
  }

  if (root === 'portfolio') {
    if (rest.length === 0) return { path: '/portfolio/', route: { root: 'portfolio', name: null } };
    if (rest.length > 1 || dir || !FILE_RE.test(rest[0])) throw bad(input, 'is not a portfolio file; use /portfolio/state.md or /portfolio/constraints.md.');
    return { path, route: { root: 'portfolio', name: rest[0] } };
  }

  if (root === 'skills') {
    for (const s of rest)
      if (!SEGMENT_RE.test(s)) throw bad(input, `has a name Forge does not allow in skills ("${s.slice(0, 40)}"); use letters, digits, "_", "-" and ".".`);
    return { path: rest.length ? path : '/skills/', route: { root: 'skills', rel: rest.join('/'), dir: dir || rest.length === 0 } };
  }

  // session
  if (rest.length === 0) return { path: '/session/', route: { root: 'session', sessionId: null, rel: '', dir: true } };
  const [sessionId, ...inner] = rest;
  if (!SESSION_ID_RE.test(sessionId)) throw bad(input, 'names an invalid session id; ids use letters, digits, "_" and "-".');
  if (inner.length === 0) return { path: `/session/${sessionId}/`, route: { root: 'session', sessionId, rel: '', dir: true } };
  const sub = inner[0];
  if (inner.length === 1 && dir) {
    if (sub !== 'context' && sub !== 'results') throw bad(input, 'is not a session folder; sessions have context/ and results/.');
    return { path, route: { root: 'session', sessionId, rel: `${sub}/`, dir: true } };
  }
  const ok = (inner.length === 1 && FILE_RE.test(sub)) || (inner.length === 2 && (sub === 'context' || sub === 'results') && FILE_RE.test(inner[1]) && !dir);
  if (!ok) {
    throw bad(input, 'is not a session file; use e.g. /session/<id>/tasks.md, /session/<id>/context/ctx_001.md or /session/<id>/results/<task>.md.');
  }
  return { path, route: { root: 'session', sessionId, rel: inner.join('/'), dir: false } };
}
