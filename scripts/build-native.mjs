#!/usr/bin/env node
// Builds Forge's one piece of C, the FTS5 ranking function in native/forge_bm25.c, into a SQLite
// loadable extension at native/build/. Runs after `npm install` (postinstall) and by hand with
// `node scripts/build-native.mjs`. It compiles against the SQLite headers better-sqlite3 itself was
// built from, so the two always agree. Where no C compiler is found the install still succeeds:
// keyword search then ranks with FTS5's own bm25() — the same order, slower on common words.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const source = join(root, 'native', 'forge_bm25.c');
export const library = join(root, 'native', 'build', `forge_bm25.${{ darwin: 'dylib', win32: 'dll' }[process.platform] ?? 'so'}`);

function sqliteHeaders() {
  const pkg = createRequire(import.meta.url).resolve('better-sqlite3/package.json');
  const dir = join(dirname(pkg), 'deps', 'sqlite3');
  return existsSync(join(dir, 'sqlite3ext.h')) ? dir : null;
}

function compilers() {
  const named = process.env.CC ? [process.env.CC] : [];
  return [...named, 'cc', 'gcc', 'clang'];
}

/** Builds the extension; returns the library's path, or null with the reason printed. */
export function buildNative({ quiet = false } = {}) {
  const say = (m) => quiet || console.log(`forge: ${m}`);
  const headers = sqliteHeaders();
  if (!headers) {
    say('better-sqlite3 has no SQLite headers here; keyword search will rank with FTS5 bm25() (slower on common words).');
    return null;
  }
  if (existsSync(library) && statSync(library).mtimeMs >= statSync(source).mtimeMs) return library;
  mkdirSync(dirname(library), { recursive: true });
  const partial = `${library}.partial`;
  const flags = ['-O2', '-fPIC', '-shared', `-I${headers}`, '-o', partial, source];
  // One macOS build serves both Apple Silicon and Intel (the installers ship both arches).
  if (process.platform === 'darwin') flags.unshift('-arch', 'arm64', '-arch', 'x86_64');
  for (const cc of compilers()) {
    const r = spawnSync(cc, flags, { encoding: 'utf8' });
    if (r.error) continue; // not installed: try the next name
    if (r.status === 0) {
      // Renamed into place whole, so a killed build never leaves a library that half loads.
      renameSync(partial, library);
      say(`built the keyword ranking extension (${cc}) → ${library}`);
      return library;
    }
    rmSync(partial, { force: true });
    say(`${cc} could not build native/forge_bm25.c:\n${r.stderr.trim()}`);
    return null;
  }
  say('no C compiler found (cc, gcc or clang; or set CC); keyword search will rank with FTS5 bm25() (slower on common words).');
  return null;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) buildNative();
