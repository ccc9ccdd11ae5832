/**
 * FTS5's porter stemmer (SQLite 3.53.2, `fts5PorterCb` and the generated step functions), ported
 * byte for byte. It runs on the UTF-8 BYTES of a token, so a non-ASCII byte is a consonant and a
 * token of fewer than 3 or more than 64 bytes is left alone — exactly what FTS5 indexes, so a
 * keyword index built from these stems scores like `bm25()`.
 */

/** FTS5_PORTER_MAX_TOKEN: longer tokens are passed through unstemmed. */
export const PORTER_MAX_TOKEN_BYTES = 64;

const A = 97;
const E = 101;
const I = 105;
const O = 111;
const U = 117;
const Y = 121;

function isVowel(c: number, yIsVowel: boolean): boolean {
  return c === A || c === E || c === I || c === O || c === U || (yIsVowel && c === Y);
}

/** fts5PorterGobbleVC: index just past the first VC sequence of b[from..from+n), or 0. */
function gobbleVC(b: Uint8Array, from: number, n: number, prevCons: boolean): number {
  let cons = prevCons;
  let i = 0;
  for (; i < n; i++) {
    cons = !isVowel(b[from + i], cons);
    if (!cons) break;
  }
  for (i++; i < n; i++) {
    cons = !isVowel(b[from + i], cons);
    if (cons) return i + 1;
  }
  return 0;
}

/** (m > 0) */
function mGt0(b: Uint8Array, n: number): boolean {
  return gobbleVC(b, 0, n, false) !== 0;
}

/** (m > 1) */
function mGt1(b: Uint8Array, n: number): boolean {
  const k = gobbleVC(b, 0, n, false);
  return k !== 0 && gobbleVC(b, k, n - k, true) !== 0;
}

/** (m = 1) */
function mEq1(b: Uint8Array, n: number): boolean {
  const k = gobbleVC(b, 0, n, false);
  return k !== 0 && gobbleVC(b, k, n - k, true) === 0;
}

/** (*o): the stem ends consonant-vowel-consonant, the last not w, x or y. */
function oStar(b: Uint8Array, n: number): boolean {
  const last = b[n - 1];
  if (last === 119 || last === 120 || last === Y) return false;
  let mask = 0;
  let cons = false;
  for (let i = 0; i < n; i++) {
    cons = !isVowel(b[i], cons);
    // Only the low three bits are read; masking keeps the C int's wrap-around out of it.
    mask = ((mask << 1) | (cons ? 1 : 0)) & 7;
  }
  return mask === 5;
}

/** (m > 1 and (*S or *T)) */
function mGt1SorT(b: Uint8Array, n: number): boolean {
  const last = b[n - 1];
  return (last === 115 || last === 116) && mGt1(b, n);
}

/** (*v*): note y counts as a vowel anywhere but the first byte, as in the C. */
function hasVowel(b: Uint8Array, n: number): boolean {
  for (let i = 0; i < n; i++) if (isVowel(b[i], i > 0)) return true;
  return false;
}

type Cond = ((b: Uint8Array, n: number) => boolean) | null;
interface Rule {
  suffix: Uint8Array;
  cond: Cond;
  output: Uint8Array;
  /** Steps 1B and 1B2 report whether they fired; the others do not. */
  ret: boolean;
}

const bytes = (s: string): Uint8Array => Uint8Array.from(s, (ch) => ch.charCodeAt(0));

/**
 * A step is a switch on the token's second-to-last byte, then an if/else-if chain over that case's
 * suffixes: the FIRST suffix that matches (with the token strictly longer than it) decides, even when
 * its condition then fails — later suffixes of the case are not tried (e.g. "ement" blocks "ment").
 */
function step(rules: [string, Cond, string, boolean?][]): Map<number, Rule[]> {
  const byKey = new Map<number, Rule[]>();
  for (const [suffix, cond, output, ret] of rules) {
    const key = suffix.charCodeAt(suffix.length - 2);
    const list = byKey.get(key) ?? [];
    list.push({ suffix: bytes(suffix), cond, output: bytes(output), ret: ret === true });
    byKey.set(key, list);
  }
  return byKey;
}

const STEP1B = step([
  ['eed', mGt0, 'ee'],
  ['ed', hasVowel, '', true],
  ['ing', hasVowel, '', true],
]);
const STEP1B2 = step([
  ['at', null, 'ate', true],
  ['bl', null, 'ble', true],
  ['iz', null, 'ize', true],
]);
const STEP2 = step([
  ['ational', mGt0, 'ate'],
  ['tional', mGt0, 'tion'],
  ['enci', mGt0, 'ence'],
  ['anci', mGt0, 'ance'],
  ['izer', mGt0, 'ize'],
  ['logi', mGt0, 'log'],
  ['bli', mGt0, 'ble'],
  ['alli', mGt0, 'al'],
  ['entli', mGt0, 'ent'],
  ['eli', mGt0, 'e'],
  ['ousli', mGt0, 'ous'],
  ['ization', mGt0, 'ize'],
  ['ation', mGt0, 'ate'],
  ['ator', mGt0, 'ate'],
  ['alism', mGt0, 'al'],
  ['iveness', mGt0, 'ive'],
  ['fulness', mGt0, 'ful'],
  ['ousness', mGt0, 'ous'],
  ['aliti', mGt0, 'al'],
  ['iviti', mGt0, 'ive'],
  ['biliti', mGt0, 'ble'],
]);
const STEP3 = step([
  ['ical', mGt0, 'ic'],
  ['ness', mGt0, ''],
  ['icate', mGt0, 'ic'],
  ['iciti', mGt0, 'ic'],
  ['ful', mGt0, ''],
  ['ative', mGt0, ''],
  ['alize', mGt0, 'al'],
]);
const STEP4 = step([
  ['al', mGt1, ''],
  ['ance', mGt1, ''],
  ['ence', mGt1, ''],
  ['er', mGt1, ''],
  ['ic', mGt1, ''],
  ['able', mGt1, ''],
  ['ible', mGt1, ''],
  ['ant', mGt1, ''],
  ['ement', mGt1, ''],
  ['ment', mGt1, ''],
  ['ent', mGt1, ''],
  ['ion', mGt1SorT, ''],
  ['ou', mGt1, ''],
  ['ism', mGt1, ''],
  ['ate', mGt1, ''],
  ['iti', mGt1, ''],
  ['ous', mGt1, ''],
  ['ive', mGt1, ''],
  ['ize', mGt1, ''],
]);

function endsWith(b: Uint8Array, n: number, suffix: Uint8Array): boolean {
  const k = suffix.length;
  if (n <= k) return false; // the C requires nBuf > nSuffix
  for (let i = 0; i < k; i++) if (b[n - k + i] !== suffix[i]) return false;
  return true;
}

/** Runs one step on b[0..n); returns the new length, negated minus one when a `ret` rule fired. */
function apply(rules: Map<number, Rule[]>, b: Uint8Array, n: number): number {
  // With n == 1 the C reads the byte before the buffer (a pointer's high byte, 0): no case matches.
  const list = n >= 2 ? rules.get(b[n - 2]) : undefined;
  if (list === undefined) return n;
  for (const rule of list) {
    if (!endsWith(b, n, rule.suffix)) continue;
    const stem = n - rule.suffix.length;
    if (rule.cond !== null && !rule.cond(b, stem)) return n;
    b.set(rule.output, stem);
    const m = stem + rule.output.length;
    return rule.ret ? -m - 1 : m;
  }
  return n;
}

/** fts5PorterStep1A */
function step1A(b: Uint8Array, n: number): number {
  if (b[n - 1] !== 115) return n;
  if (b[n - 2] === E) {
    if ((n > 4 && b[n - 4] === 115 && b[n - 3] === 115) || (n > 3 && b[n - 3] === I)) return n - 2;
    return n - 1;
  }
  return b[n - 2] !== 115 ? n - 1 : n;
}

/**
 * Stems the token bytes b[0..n) in place and returns the new length (never longer than n).
 * The caller passes 3 <= n <= PORTER_MAX_TOKEN_BYTES, as fts5PorterCb does.
 */
export function porterStemBytes(b: Uint8Array, n0: number): number {
  let n = step1A(b, n0);
  const r1b = apply(STEP1B, b, n);
  if (r1b < 0) {
    n = -r1b - 1;
    const r1b2 = apply(STEP1B2, b, n);
    if (r1b2 < 0) {
      n = -r1b2 - 1;
    } else {
      const c = b[n - 1];
      // b[n - 2] with n == 1 is the byte before the buffer in C (0): never equal to a letter.
      if (!isVowel(c, false) && c !== 108 && c !== 115 && c !== 122 && n >= 2 && c === b[n - 2]) {
        n--;
      } else if (mEq1(b, n) && oStar(b, n)) {
        b[n++] = E;
      }
    }
  } else {
    n = r1b;
  }

  // Step 1C
  if (b[n - 1] === Y && hasVowel(b, n - 1)) b[n - 1] = I;

  n = apply(STEP2, b, n);
  n = apply(STEP3, b, n);
  n = apply(STEP4, b, n);

  // Step 5a
  if (b[n - 1] === E && (mGt1(b, n - 1) || (mEq1(b, n - 1) && !oStar(b, n - 1)))) n--;

  // Step 5b
  if (n > 1 && b[n - 1] === 108 && b[n - 2] === 108 && mGt1(b, n - 1)) n--;

  return n;
}
