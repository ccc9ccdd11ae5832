/**
 * Pieces every text of the build runner shares: how long output is cut, how quoted text is fenced,
 * how a phase is named.
 */

const MAX_OUTPUT = 4000;

/** The tail of a long output, marked as cut: the end of a test run is where the failure summary is. */
export function tail(text: string, max = MAX_OUTPUT): string {
  const t = text.trimEnd();
  return t.length <= max ? t : `[… ${t.length - max} earlier characters cut …]\n${t.slice(-max)}`;
}

/** A fence longer than any backtick run inside, so quoted text cannot close it early. */
export function fenced(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text.trimEnd()}\n${fence}`;
}

/** "Phase 2" from a number; a label such as "Phase 2 — API" as given. */
export const phaseLabel = (phase: number | string) => (typeof phase === 'number' ? `Phase ${phase}` : phase);
