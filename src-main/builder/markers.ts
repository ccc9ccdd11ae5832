import { type StopCode, stopCode } from '../api/builds';

/**
 * The markers the builder writes into its answers, read back into build state. The exact formats
 * (the system prompt in mcp/builder-prompt.ts teaches them; a test keeps both in step):
 *
 *   === PLAN ===              numbered items (`1.`, `1)`, `- [ ] 1.`), one per task
 *   === END PLAN ===
 *   === TASK DONE: N ===
 *   === PHASE SIGN-OFF: PASS ===
 *   Phase: <name>             Deliverables: a comma list or bullet lines; Tests: <result>
 *   === END PHASE SIGN-OFF ===
 *   === STOP: <CODE> ===      followed by the reason
 *
 * The reader is tolerant of what models do to text — prose around the markers, **bold**, CRLF,
 * extra spaces, lower case — but ignores anything inside a ``` fence: a model explaining the
 * format quotes it in a code block, and that must not sign off a phase. Fenced marker lines are
 * counted so the runner can tell the model to write them outside the block.
 */

export interface PlanItem {
  number: number;
  text: string;
}

export interface SignOff {
  /** The Phase: line as written ("1 — Core API"). */
  phase: string;
  /** The first number in it, when there is one. */
  phaseNumber: number | null;
  deliverables: string[];
  /** The Tests: line as written ("PASS (14 passed)"). */
  tests: string;
}

export interface ParsedMarkers {
  /** The last plan block of the text; [] when the block had no items; null when there was none. */
  plan: PlanItem[] | null;
  /** TASK DONE numbers in the order written, each once. */
  tasksDone: number[];
  /** The last PASS sign-off block. */
  signOff: SignOff | null;
  /** The first STOP with one of the six codes. */
  stop: { code: StopCode; reason: string } | null;
  /** A STOP marker whose code is not one of the six: not a stop; the runner lists the valid codes. */
  unknownStop: { code: string; reason: string } | null;
  /** Marker lines found inside code fences and ignored. */
  fencedMarkers: number;
}

export const STOP_CODES: readonly StopCode[] = stopCode.options;

/** The literal marker lines, for prompts and messages that quote them. */
export const MARKER = {
  planStart: '=== PLAN ===',
  planEnd: '=== END PLAN ===',
  taskDone: (n: number | string) => `=== TASK DONE: ${n} ===`,
  signOffStart: '=== PHASE SIGN-OFF: PASS ===',
  signOffEnd: '=== END PHASE SIGN-OFF ===',
  stop: (code: string) => `=== STOP: ${code} ===`,
} as const;

type Marker =
  | { kind: 'planStart' | 'planEnd' | 'signOffStart' | 'signOffFail' | 'signOffEnd' }
  | { kind: 'taskDone'; n: number }
  | { kind: 'stop'; code: string; rest: string };

const MAX_REASON = 4000;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const ANY_MARKER = /={2,}[^=\n]{2,}={2,}/;
const TASK_DONE_ANYWHERE = /={2,}\s*task\s*done\s*[:#-]?\s*(\d+)\s*={2,}/gi;
const STOP_CODE_SET = new Set<string>(STOP_CODES);

/** "  > **=== Plan ===**  " → "=== Plan ===": quote marks, headings and emphasis around a line. */
function cleanLine(line: string): string {
  return line
    .trim()
    .replace(/^(?:[#>]+\s*)+/, '')
    .replace(/^[*_`]+|[*_`]+$/g, '')
    .trim();
}

const normaliseCode = (code: string) =>
  code
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');

function markerOf(line: string): Marker | null {
  const cleaned = cleanLine(line);
  const m = /^={2,}\s*([^=]+?)\s*={2,}(.*)$/.exec(cleaned);
  if (!m) {
    // A bare "STOP: AMBIGUOUS_INTENT" line counts only with a valid code (prose says "stop" too often).
    const bare = /^stop\s*[:—–-]\s*([A-Za-z_]+)\b\s*[:—–-]?\s*(.*)$/i.exec(cleaned);
    if (bare && STOP_CODE_SET.has(normaliseCode(bare[1]!))) return { kind: 'stop', code: normaliseCode(bare[1]!), rest: bare[2]!.trim() };
    return null;
  }
  const inner = m[1]!.replace(/\s+/g, ' ').trim();
  const rest = m[2]!.replace(/^[*_`\s]+/, '').trim();
  if (/^plan$/i.test(inner)) return { kind: 'planStart' };
  if (/^end ?plan$/i.test(inner)) return { kind: 'planEnd' };
  const done = /^task ?done ?[:#-]? ?(\d+)$/i.exec(inner);
  if (done) return { kind: 'taskDone', n: Number(done[1]) };
  const signOff = /^phase ?sign[ -]?off ?[:-]? ?(pass|fail)\w*$/i.exec(inner);
  if (signOff) return { kind: signOff[1]!.toLowerCase() === 'pass' ? 'signOffStart' : 'signOffFail' };
  if (/^end ?(?:phase ?)?sign[ -]?off$/i.test(inner)) return { kind: 'signOffEnd' };
  const stop = /^stop ?[:—–-]? ?([A-Za-z][A-Za-z_ -]*)$/i.exec(inner);
  if (stop) return { kind: 'stop', code: normaliseCode(stop[1]!), rest };
  return null;
}

export function parseMarkers(text: string): ParsedMarkers {
  const out: ParsedMarkers = { plan: null, tasksDone: [], signOff: null, stop: null, unknownStop: null, fencedMarkers: 0 };
  const lines = visibleLines(text, () => out.fencedMarkers++);
  const doneSeen = new Set<number>();
  const markDone = (n: number) => {
    if (!doneSeen.has(n)) {
      doneSeen.add(n);
      out.tasksDone.push(n);
    }
  };

  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const marker = line === null ? null : markerOf(line);
    i++;
    if (line === null) continue;
    if (!marker) {
      for (const m of line.matchAll(TASK_DONE_ANYWHERE)) markDone(Number(m[1]));
      continue;
    }
    if (marker.kind === 'taskDone') markDone(marker.n);
    else if (marker.kind === 'planStart') {
      const body = takeBlock(lines, i, 'planEnd');
      out.plan = parsePlanItems(body.lines);
      i = body.next;
    } else if (marker.kind === 'signOffStart') {
      const body = takeBlock(lines, i, 'signOffEnd');
      out.signOff = parseSignOff(body.lines);
      i = body.next;
    } else if (marker.kind === 'stop') {
      const body = takeBlock(lines, i, null);
      i = body.next;
      const reason = [marker.rest, ...body.lines]
        .join('\n')
        .trim()
        .replace(/^\**reason\**\s*:\s*\**/i, '')
        .trim()
        .slice(0, MAX_REASON);
      if (STOP_CODE_SET.has(marker.code)) out.stop ??= { code: marker.code as StopCode, reason };
      else out.unknownStop ??= { code: marker.code, reason };
    }
  }
  return out;
}

/** The text's lines with every line inside a code fence replaced by null (counted when it holds a marker). */
function visibleLines(text: string, onFencedMarker: () => void): (string | null)[] {
  const out: (string | null)[] = [];
  let fence: string | null = null;
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const f = FENCE.exec(line);
    if (fence === null && f) {
      fence = f[1]!;
      out.push(null);
    } else if (fence !== null) {
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length && line.trim() === f[1]) fence = null;
      else if (ANY_MARKER.test(line)) onFencedMarker();
      out.push(null);
    } else {
      out.push(line);
    }
  }
  return out;
}

/**
 * The lines after a start marker up to its end marker. A block the model never closed ends at the
 * next marker or the end of the text, so a cut-off answer still yields what it did write.
 */
function takeBlock(lines: (string | null)[], from: number, end: Marker['kind'] | null): { lines: string[]; next: number } {
  const body: string[] = [];
  let i = from;
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (line === null) continue;
    const m = markerOf(line);
    if (m && m.kind === end) return { lines: body, next: i + 1 };
    if (m) break;
    body.push(line);
  }
  return { lines: body, next: i };
}

const NUMBERED = /^(\s*)(?:[-*+]\s+)?(?:\[[ xX]?\]\s*)?(?:\*\*|__)?(?:(?:task|step)\s+)?(\d+)\s*[.):](?:\*\*|__)?\s+(.+)$/i;
const BULLET = /^(\s*)[-*+]\s+(?:\[[ xX]?\]\s*)?(.+)$/;
const stripEmphasis = (s: string) => s.replace(/\*\*|__/g, '').trim();

function parsePlanItems(lines: string[]): PlanItem[] {
  const numbered = lines.some((l) => NUMBERED.test(l));
  const items: PlanItem[] = [];
  let topIndent = Number.POSITIVE_INFINITY;
  for (const raw of lines) {
    if (!raw.trim()) continue;
    const n = NUMBERED.exec(raw);
    const b = numbered ? null : BULLET.exec(raw);
    // Items are the least-indented numbered (or, without numbers, bulleted) lines; deeper ones belong to the item above.
    if (n && n[1]!.length <= topIndent) {
      topIndent = n[1]!.length;
      items.push({ number: Number(n[2]), text: stripEmphasis(n[3]!) });
    } else if (b && b[1]!.length <= topIndent) {
      topIndent = b[1]!.length;
      items.push({ number: items.length + 1, text: stripEmphasis(b[2]!) });
    } else if (items.length > 0) {
      const last = items[items.length - 1]!;
      const more = stripEmphasis(raw.trim().replace(/^[-*+]\s+/, ''));
      if (more) last.text = `${last.text} ${more}`;
    }
  }
  return items;
}

const FIELD = /^(phase|deliverables|tests)\s*:\s*(.*)$/i;

function parseSignOff(lines: string[]): SignOff {
  const fields: Record<'phase' | 'deliverables' | 'tests', string[]> = { phase: [], deliverables: [], tests: [] };
  let current: keyof typeof fields | null = null;
  for (const raw of lines) {
    const line = cleanLine(raw.replace(/\*\*|__/g, ''));
    const f = FIELD.exec(line);
    if (f) {
      current = f[1]!.toLowerCase() as keyof typeof fields;
      if (f[2]!.trim()) fields[current].push(f[2]!.trim());
    } else if (current && line) {
      fields[current].push(line);
    }
  }
  const phase = fields.phase.join(' ').trim();
  const num = /\d+/.exec(phase);
  const deliverables = fields.deliverables.flatMap((l) => {
    const bullet = /^(?:[-*+]|\d+[.)])\s+(.+)$/.exec(l);
    return bullet ? [bullet[1]!.trim()] : splitList(l);
  });
  return { phase, phaseNumber: num ? Number(num[0]) : null, deliverables: deliverables.filter(Boolean), tests: fields.tests.join(' ').trim() };
}

/** "a, b (GET, POST), c" → three items: commas inside brackets do not split. */
function splitList(line: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of line) {
    if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth = Math.max(0, depth - 1);
    if ((ch === ',' || ch === ';') && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  out.push(cur.trim());
  return out.filter(Boolean);
}
