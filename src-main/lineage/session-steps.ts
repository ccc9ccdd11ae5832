import { readToolLog, type ToolLogEntry } from '../agent/tool-log';
import type { LineageStep } from '../api/lineage';
import { reviewKey } from '../executor';
import type { Store } from '../store';

/**
 * The steps a session contributes to an Expression's lineage: the analyst's logged tool calls
 * (reads, searches, fetches, blocked writes with their guardrail figures), the sub-agent tasks with
 * the skill text each loaded, and the reviewer's verdicts. Only stored facts; gaps are named.
 */

/**
 * What a skill's SKILL.md hash was as a version: null when it matches none of its recorded versions,
 * 'no-history' when the skill has none, undefined when the skill's folder cannot be found.
 */
export type SkillVersionLookup = (skill: string, hash: string) => { version: number; createdAt: string; by: string } | null | 'no-history' | undefined;

const step = (s: Omit<LineageStep, 'figures' | 'links' | 'recorded'> & Partial<LineageStep>): LineageStep => ({
  figures: [],
  links: [],
  recorded: true,
  ...s,
});

const clip = (s: string, n = 300) => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n)}…` : one;
};
const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));

/** `- max_single_risk: actual 6, limit 5` lines of a blocked write, as figures. */
export function guardrailFigures(text: string): { label: string; value: string }[] {
  const out: { label: string; value: string }[] = [];
  for (const m of text.matchAll(/^- ([a-z_]+): actual ([^,\n]+), limit ([^\s—\n]+)/gm)) {
    out.push({ label: `${m[1]} actual`, value: m[2]!.trim() }, { label: `${m[1]} limit`, value: m[3]!.trim() });
  }
  return out;
}

function logStep(e: ToolLogEntry): LineageStep | null {
  const input = e.input ?? {};
  switch (e.name) {
    case 'read': {
      const path = str(input.path);
      return step({
        at: e.at,
        kind: 'read',
        title: `Read ${path}`,
        summary: e.isError ? `Failed: ${clip(e.result, 200)}` : clip(e.result, 200),
        links: path ? [path] : [],
      });
    }
    case 'search':
      return step({ at: e.at, kind: 'search', title: `Searched "${clip(str(input.query), 120)}"`, summary: clip(e.result, 300) });
    case 'fetch': {
      // A fetch that worked has its stored copy (context/ctx_NNN.md, in the audit): that is its step, as for sub-agents'.
      if (/^\[ctx_\d+ \|/.test(e.result)) return null;
      return step({
        at: e.at,
        kind: 'fetch',
        title: `Fetch ${str(input.source)} failed`,
        summary: clip(e.result, 300),
        figures: [{ label: 'params', value: JSON.stringify(input.params ?? {}) }],
      });
    }
    case 'write': {
      const path = str(input.path);
      if (e.isError && /BLOCKED by guardrails/.test(e.result)) {
        return step({
          at: e.at,
          kind: 'guardrail',
          title: `Guardrails blocked a write to ${path}`,
          summary: clip(e.result, 400),
          figures: guardrailFigures(e.result),
          links: [path],
        });
      }
      const written = /Written: (\/\S+)/.exec(e.result)?.[1];
      return step({
        at: e.at,
        kind: 'write',
        title: e.isError ? `Write to ${path} refused` : `Wrote ${written ?? path}`,
        summary: clip(e.result, 300),
        links: [written ?? path],
      });
    }
    case 'review':
    case 'dispatch':
    case 'collect':
      return null; // The reviews and tasks tables hold these in full; see below.
    default:
      return step({ at: e.at, kind: 'write', title: `Tool ${e.name}`, summary: clip(e.result, 200) });
  }
}

interface TaskRow {
  id: string;
  skill: string;
  objective: string;
  status: string;
  summary: string | null;
  result_path: string | null;
  created_at: string;
  finished_at: string | null;
  error: string | null;
}

function taskSteps(store: Store, sessionId: string, until: string, skillVersion?: SkillVersionLookup): LineageStep[] {
  const tasks = store.db
    .prepare(
      'SELECT id, skill, objective, status, summary, result_path, created_at, finished_at, error FROM tasks WHERE session_id = ? AND created_at <= ? ORDER BY created_at, id',
    )
    .all(sessionId, until) as TaskRow[];
  const events = store.db.prepare('SELECT at, kind, detail FROM task_events WHERE session_id = ? AND task_id = ? ORDER BY seq');
  const out: LineageStep[] = [];
  for (const t of tasks) {
    const ev = events.all(sessionId, t.id) as { at: string; kind: string; detail: string }[];
    const tools = ev.filter((e) => e.kind === 'tool_call').map((e) => e.detail);
    const counts = [...new Set(tools)].map((n) => `${n} ×${tools.filter((x) => x === n).length}`).join(', ');
    out.push(
      step({
        at: ev.find((e) => e.kind === 'dispatched')?.at ?? t.created_at,
        kind: 'task',
        title: `Sub-agent task ${t.id} (${t.skill}) — ${t.status}`,
        summary: `Objective: ${clip(t.objective, 300)}\nOutput: ${t.summary ? clip(t.summary, 400) : t.error ? `failed: ${clip(t.error, 200)}` : 'not recorded'}${
          tools.some((n) => n === 'read' || n === 'search') ? '\nWhat it read or searched: not recorded (only the tool names are kept for sub-agents).' : ''
        }`,
        figures: [
          { label: 'status', value: t.status },
          { label: 'tool calls', value: counts || 'none' },
          ...(t.finished_at ? [{ label: 'finished', value: t.finished_at }] : []),
        ],
        links: t.result_path ? [t.result_path.replace(/^\/session\//, `/session/${sessionId}/`)] : [],
      }),
    );
    const loaded = ev.find((e) => e.kind === 'skill_loaded');
    out.push(
      loaded
        ? skillStep(t, loaded, skillVersion)
        : gap(
            ev.find((e) => e.kind === 'started')?.at ?? t.created_at,
            `Skill version for task ${t.id} not recorded`,
            `Task ${t.id} ran skill ${t.skill}, but which text of it was not stored (it ran before Forge recorded skill versions).`,
          ),
    );
  }
  return out;
}

function skillStep(t: TaskRow, loaded: { at: string; detail: string }, lookup?: SkillVersionLookup): LineageStep {
  let detail: { skill?: string; file?: string; hash?: string | null } = {};
  try {
    detail = JSON.parse(loaded.detail);
  } catch {
    // A damaged detail reads as "not recorded" below.
  }
  const skill = detail.skill ?? t.skill;
  if (!detail.hash)
    return gap(loaded.at, `Skill ${skill} loaded by ${t.id}: text not recorded`, `The SKILL.md text task ${t.id} loaded could not be read when it started.`);
  const found = lookup?.(skill, detail.hash);
  const figures = [
    { label: 'skill', value: skill },
    { label: 'SKILL.md sha256', value: detail.hash.slice(0, 16) },
  ];
  let version: string;
  if (found && found !== 'no-history') {
    figures.push({ label: 'version', value: String(found.version) }, { label: 'version made', value: `${found.createdAt} by ${found.by}` });
    version = `version ${found.version} of SKILL.md`;
  } else if (found === undefined) {
    figures.push({ label: 'version', value: 'not looked up' });
    version = `the SKILL.md text with hash ${detail.hash.slice(0, 16)} (its version history was not consulted)`;
  } else if (found === 'no-history') {
    figures.push({ label: 'version', value: 'as shipped (no edits recorded)' });
    version = 'SKILL.md as shipped: the skill has no edit history, so this hash is its only version';
  } else {
    figures.push({ label: 'version', value: 'not among recorded versions' });
    version = 'a SKILL.md text whose hash matches no recorded version (edited outside Forge)';
  }
  return step({
    at: loaded.at,
    kind: 'skill',
    title: `Task ${t.id} loaded skill ${skill}`,
    summary: `Ran on ${version}.`,
    figures,
    links: [`/skills/${skill}/SKILL.md`],
  });
}

function gap(at: string | null, title: string, summary: string): LineageStep {
  return step({ at, kind: 'gap', title, summary, recorded: false });
}

/** A stored fetch's header line `key: value`, as the provider wrote it. */
const headerField = (text: string, key: string) => new RegExp(`^${key}: (.*)$`, 'm').exec(text.split('\n---\n')[0] ?? '')?.[1]?.trim() ?? null;

/**
 * Who wrote an audit row, in words: "the analyst", "sub-agent t7", or the actor as stored. On a desk
 * a row the analyst wrote for a person reads `agent@pm01` (host/desk-calls.ts actorOnDesk): the
 * kind before the first '@', the person after it — "the analyst (for pm01)".
 */
export function writerName(actor: string, taskId?: string | null): string {
  const at = actor.indexOf('@');
  const kind = at < 0 ? actor : actor.slice(0, at);
  const forWhom = at < 0 ? '' : ` (for ${actor.slice(at + 1)})`;
  if (taskId || kind.startsWith('subagent:')) return `sub-agent ${taskId || kind.slice('subagent:'.length)}${forWhom}`;
  return kind === 'agent' ? `the analyst${forWhom}` : actor;
}

/**
 * Every fetch of the session, the analyst's and its sub-agents', from the audit rows that created
 * its stored copies (context/ctx_NNN.md): source and as-of come from the copy's own header.
 */
function fetchSteps(store: Store, sessionId: string, until: string): LineageStep[] {
  const prefix = `/session/${sessionId}/context/`;
  const rows = store.db
    .prepare(
      `SELECT at, actor, path, task_id FROM audit_log
        WHERE session_id = ? AND path >= ? AND path < ? AND operation = 'create' AND at <= ? ORDER BY seq`,
    )
    .all(sessionId, prefix, `${prefix.slice(0, -1)}0`, until) as { at: string; actor: string; path: string; task_id: string | null }[];
  return rows.map((r) => {
    const text = store.sessions.getFile(sessionId, r.path.slice(`/session/${sessionId}/`.length))?.content ?? '';
    const title = /^# ctx — (.*)$/m.exec(text)?.[1]?.trim() ?? r.path.split('/').pop()!;
    const by = writerName(r.actor, r.task_id);
    const fields: [string, string | null][] = [
      ['source', headerField(text, 'source')],
      ['as of', headerField(text, 'as_of')],
      ['range', headerField(text, 'range')],
      ['fetched at', headerField(text, 'fetched_at')],
    ];
    const missing = fields.filter(([, v]) => !v).map(([k]) => k);
    return step({
      at: r.at,
      kind: 'fetch',
      title: `Fetched ${title} (by ${by})`,
      summary: text
        ? clip(/## SUMMARY\n([\s\S]*?)(\n## |$)/.exec(text)?.[1] ?? '', 300) + (missing.length ? ` (${missing.join(', ')}: not recorded)` : '')
        : 'The stored copy is gone: source and as-of not recorded.',
      figures: fields.map(([label, v]) => ({ label, value: v ?? 'not recorded' })),
      links: [r.path],
    });
  });
}

interface ReviewRow {
  verdict: string;
  focus: string;
  reasons: string;
  at: string;
  content_key: string;
}

function reviewSteps(store: Store, sessionId: string, until: string, matchKeys: Set<string>): LineageStep[] {
  const rows = store.db
    .prepare('SELECT verdict, focus, reasons, at, content_key FROM reviews WHERE session_id = ? AND at <= ? ORDER BY seq')
    .all(sessionId, until) as ReviewRow[];
  return rows.map((r) =>
    step({
      at: r.at,
      kind: 'review',
      title: `Reviewer: ${r.verdict}${matchKeys.has(r.content_key) ? ' — of the text proposed' : ' — of a draft in this session'}`,
      summary: `Focus: ${clip(r.focus, 200)}\n${clip(r.reasons, 600)}`,
      figures: [{ label: 'verdict', value: r.verdict }],
    }),
  );
}

/**
 * Everything the proposing session did up to `until` (the proposal's write). `matchKeys`: the
 * review keys of this record's texts, so the review that cleared exactly it is marked.
 */
export function sessionSteps(
  store: Store,
  sessionId: string,
  until: string,
  options: { matchKeys: Set<string>; path?: string; skillVersion?: SkillVersionLookup },
): LineageStep[] {
  const steps: LineageStep[] = [];
  const log = readToolLog(store, sessionId);
  // The text the analyst wrote (before the pipeline set its id and status) is what the review gate matched.
  const matchKeys = new Set(options.matchKeys);
  for (const e of log ?? []) {
    if (e.name === 'write' && !e.isError && options.path && e.result.includes(`Written: ${options.path}`) && typeof e.input?.content === 'string') {
      matchKeys.add(reviewKey(e.input.content));
    }
  }
  if (log === null) {
    steps.push(
      gap(
        null,
        'Reads, searches and fetches not recorded',
        `Session ${sessionId} kept no tool log (it ran before Forge recorded one), so what the analyst read and fetched is not recorded.`,
      ),
    );
  } else {
    for (const e of log) {
      if (e.at > until) break;
      const s = logStep(e);
      if (s) steps.push(s);
    }
  }
  steps.push(...fetchSteps(store, sessionId, until));
  steps.push(...taskSteps(store, sessionId, until, options.skillVersion));
  steps.push(...reviewSteps(store, sessionId, until, matchKeys));
  return steps;
}
