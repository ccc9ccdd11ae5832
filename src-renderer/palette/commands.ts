import { type Screen, screens } from '../app/routes';
import { screenInfo } from '../app/screens';

/**
 * The command palette's pure rules: what it offers (every screen, the main actions, a record by
 * id) and how typed text ranks them. No React here, so the rules are tested on their own.
 */

export type ActionId = 'new-chat' | 'run-demo' | 'search-memory' | 'next-expression' | 'next-proposal' | 'start-build';

export type PaletteCommand =
  | { kind: 'screen'; key: string; label: string; hint: string; screen: Screen }
  | { kind: 'action'; key: string; label: string; hint: string; action: ActionId; keywords?: string }
  | { kind: 'record'; key: string; label: string; hint: string; id: string; screen: Screen; rest: string[] };

const actions: { action: ActionId; label: string; hint: string; words: string }[] = [
  { action: 'new-chat', label: 'New chat', hint: 'Start a new conversation with the analyst', words: 'conversation' },
  { action: 'run-demo', label: 'Run the demo', hint: 'A scripted session in a sample workspace (marked DEMO), no API key needed', words: '' },
  { action: 'search-memory', label: 'Search memory', hint: 'Views, Expressions and research by meaning', words: 'find' },
  { action: 'next-expression', label: 'Review the next Expression awaiting approval', hint: 'Opens the oldest proposed Expression', words: 'approve' },
  { action: 'next-proposal', label: 'Approve next proposal', hint: 'Opens the first pending skill-edit proposal', words: 'skill' },
  { action: 'start-build', label: 'Start a build', hint: 'The builder works through a project phase by phase', words: 'builder project' },
];

/** Everything the palette offers before the PM types an id: every screen, then the actions. */
export function baseCommands(): PaletteCommand[] {
  const toScreens: PaletteCommand[] = screens.map((s) => ({
    kind: 'screen',
    key: `screen:${s}`,
    label: `Go to ${screenInfo[s].label}`,
    hint: screenInfo[s].purpose,
    screen: s,
  }));
  const toActions: PaletteCommand[] = actions.map((a) => ({
    kind: 'action',
    key: `action:${a.action}`,
    label: a.label,
    hint: a.hint,
    action: a.action,
    keywords: a.words,
  }));
  return [...toScreens, ...toActions];
}

/** Id prefixes and where each record is shown: Views and Expressions on their screens, proposals on theirs, the rest in the memory pane. */
const RECORDS: Record<string, { noun: string; screen: Screen; folder: string | null }> = {
  E: { noun: 'Expression', screen: 'expressions', folder: null },
  V: { noun: 'View', screen: 'views', folder: null },
  SEP: { noun: 'skill-edit proposal', screen: 'proposals', folder: null },
  PK: { noun: 'Process Knowledge entry', screen: 'views', folder: '/memory/pk/' },
  OUT: { noun: 'Outcome', screen: 'views', folder: '/memory/outcomes/' },
  CF: { noun: 'Counterfactual', screen: 'views', folder: '/memory/counterfactuals/' },
  O: { noun: 'Observation', screen: 'views', folder: '/memory/observations/' },
  L: { noun: 'Linkage', screen: 'views', folder: '/memory/linkages/' },
};

const ID_TEXT = /^\s*(SEP|OUT|PK|CF|E|V|O|L)\s*-?\s*(\d{1,9})\s*$/i;

/**
 * A record id in what the PM typed (`E-004`, `e4`, `sep-1`, `PK 3`), normalised to the id Forge
 * writes (three digits at least), with the route that opens it; null when the text is not an id.
 */
export function detectRecordId(text: string): Extract<PaletteCommand, { kind: 'record' }> | null {
  const m = ID_TEXT.exec(text);
  if (!m) return null;
  const prefix = m[1]!.toUpperCase();
  const info = RECORDS[prefix]!;
  const id = `${prefix}-${m[2]!.replace(/^0+(?=\d)/, '').padStart(3, '0')}`;
  let rest: string[];
  // Proposals, Views and Expressions open on their own page (`#/views/V-001`); the rest in the memory pane.
  if (info.screen === 'proposals' || prefix === 'E' || prefix === 'V') rest = [id];
  else if (info.folder) rest = [`${info.folder}${id}.md`];
  else rest = [`${id}.md`];
  return { kind: 'record', key: `record:${id}`, label: `Open ${id}`, hint: `The ${info.noun} ${id}`, id, screen: info.screen, rest };
}

/**
 * How well `query` matches `text` as a subsequence (letters in order, gaps allowed), higher is
 * better; null when some letter is missing. Runs of adjacent letters and letters that start a word
 * score more, so "exp" ranks "Go to Expressions" above "Review the next Expression…" only by fit.
 */
export function fuzzyScore(query: string, text: string): number | null {
  const q = query.toLowerCase().replace(/\s+/g, '');
  if (!q) return 0;
  const t = text.toLowerCase();
  let score = 0;
  let ti = 0;
  let run = 0;
  for (const ch of q) {
    const found = t.indexOf(ch, ti);
    if (found < 0) return null;
    const wordStart = found === 0 || /[\s\-/—]/.test(t[found - 1]!);
    run = found === ti && ti > 0 ? run + 1 : 0;
    score += 1 + run * 2 + (wordStart ? 3 : 0) - Math.min(found - ti, 5) * 0.1;
    ti = found + 1;
  }
  // A shorter text with the same letters is the closer match.
  return score - t.length * 0.01;
}

/**
 * What the palette lists for `query`: a typed record id first (it is what the PM asked for), then
 * every command whose label (or hint, weighted lower) matches, best first, ties in their usual order.
 */
export function filterCommands(query: string, commands: readonly PaletteCommand[] = baseCommands()): PaletteCommand[] {
  const record = detectRecordId(query);
  const q = query.trim();
  if (!q) return [...commands];
  const words = q.toLowerCase().split(/\s+/);
  const scored: { c: PaletteCommand; score: number; i: number }[] = [];
  commands.forEach((c, i) => {
    const onLabel = fuzzyScore(q, c.label);
    // The description only counts word by word: a loose letter match over a long sentence is noise.
    const about = `${c.kind === 'action' ? (c.keywords ?? '') : ''} ${c.hint}`.toLowerCase();
    const onHint = onLabel === null && words.every((w) => about.includes(w));
    const score = onLabel ?? (onHint ? -100 : null);
    if (score !== null) scored.push({ c, score, i });
  });
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  const hits = scored.map((s) => s.c);
  return record ? [record, ...hits] : hits;
}

/** True when a key press happens where the PM is typing, so single-key shortcuts must stay out of the way. */
export function isTypingTarget(target: { tagName?: string; isContentEditable?: boolean; closest?: (sel: string) => unknown } | null): boolean {
  if (!target) return false;
  const tag = (target.tagName ?? '').toUpperCase();
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable) return true;
  return insideMonaco(target);
}

/** Monaco owns its own chords (Ctrl+K Ctrl+C…): the palette leaves keys pressed inside an editor alone. */
export function insideMonaco(target: { closest?: (sel: string) => unknown } | null): boolean {
  return Boolean(target?.closest?.('.monaco-editor'));
}

/** The keyboard shortcuts the help overlay lists; none collides with Monaco's (they are ignored inside an editor). */
export const shortcuts: { keys: string; does: string }[] = [
  { keys: 'Ctrl+K / ⌘K', does: 'Open the command palette (go to a screen, run an action, open a record by id)' },
  { keys: '↑ ↓, Enter', does: 'Move through the palette’s list and run the highlighted command' },
  { keys: 'Esc', does: 'Close the palette, this help, or a reject form' },
  { keys: '?', does: 'Show these shortcuts (when not typing)' },
  { keys: '/', does: 'Jump to the search box on Views and Expressions' },
  { keys: 'Tab / Shift+Tab', does: 'Move between controls; the first Tab offers “Skip to content”' },
];
