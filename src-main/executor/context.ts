import { atDepth, extractSection, type ReadDepth } from '../fs';
import type { LoadedSkillWithFiles } from '../skills';

/** The slice of a session's ForgeFS the executor reads and writes (SessionFS satisfies it). */
export interface TaskFiles {
  readFile(path: string): string;
  exists(path: string): boolean;
  writeFile(path: string, content: string, ctx: { actor: `subagent:${string}`; taskId?: string }): Promise<unknown>;
}

/** The sub-agent's system prompt: skill body, then its templates, references and script list. */
export function buildSubAgentSystem(skill: LoadedSkillWithFiles, grantedTools: string[]): string {
  const parts = [skill.body.trim()];
  const templates = Object.entries(skill.templates);
  if (templates.length) {
    parts.push('## Output Templates');
    for (const [name, text] of templates) parts.push(`### ${name}\n\`\`\`\n${text.trimEnd()}\n\`\`\``);
  }
  const references = Object.entries(skill.references);
  if (references.length) {
    parts.push('## Reference Materials');
    for (const [name, text] of references) parts.push(`### ${name}\n${text.trim()}`);
  }
  if (skill.scripts.length) {
    const how = grantedTools.includes('run_script')
      ? 'Run one with the run_script tool: {"script": "<file>", "input": {...}}; it answers with JSON.'
      : 'This task was not granted run_script; describe the computation instead.';
    parts.push(`## Available Scripts\n${skill.scripts.map((s) => `- ${s}`).join('\n')}\n${how}`);
  }
  parts.push(
    `## Working rules\nYou are a sub-agent working for the analyst, not the PM. Your tools: ${grantedTools.join(', ')}. ` +
      'Memory is read-only for you: put proposed changes in your output and the analyst decides what to write. ' +
      'Start your answer with a `## SUMMARY` section of 3-5 sentences; the analyst reads that first.',
  );
  return parts.join('\n\n');
}

/** Maps a context ref (without depth suffix) to the ForgeFS path it names (seed §5 `_ref_to_path`). */
export function refToPath(ref: string, files: Pick<TaskFiles, 'exists'>): string | null {
  if (/^ctx_[A-Za-z0-9_-]+$/.test(ref)) return `/session/context/${ref}.md`;
  if (/^V-\d+$/.test(ref)) return `/memory/views/${ref}.md`;
  if (/^E-\d+$/.test(ref)) return `/memory/expressions/${ref}.md`;
  if (/^PK-\d+$/.test(ref)) return `/memory/pk/${ref}.md`;
  if (ref === 'integration_brief') return '/session/integration_brief.md';
  if (ref.startsWith('/')) return ref;
  if (/^[A-Za-z0-9_.-]{1,80}$/.test(ref)) {
    const p = `/session/results/${ref}.md`;
    if (safeExists(files, p)) return p;
  }
  return null;
}

function safeExists(files: Pick<TaskFiles, 'exists'>, path: string): boolean {
  try {
    return files.exists(path);
  } catch {
    return false;
  }
}

/** `V-001:summary` → the View's header + SUMMARY; unknown refs say so instead of failing the task. */
export function resolveRef(ref: string, files: Pick<TaskFiles, 'exists' | 'readFile'>): string {
  let depth: ReadDepth = 'full';
  let base = ref.trim();
  for (const d of ['summary', 'header'] as const) {
    if (base.endsWith(`:${d}`)) {
      depth = d;
      base = base.slice(0, -d.length - 1);
    }
  }
  const path = refToPath(base, files);
  if (!path || !safeExists(files, path)) return `(ref '${ref}' not found)`;
  try {
    return atDepth(files.readFile(path), depth);
  } catch (e) {
    return `(ref '${ref}' could not be read: ${(e as Error).message})`;
  }
}

/** The sub-agent's user message: OBJECTIVE / CONTEXT / PRIOR ANALYSIS / NOTES, separated by rules. */
export function buildSubAgentMessage(
  spec: { objective: string; context: string[]; notes?: string },
  dependencySummaries: [string, string][],
  files: Pick<TaskFiles, 'exists' | 'readFile'>,
): string {
  const sections = [`OBJECTIVE:\n${spec.objective}`];
  if (spec.context.length) {
    sections.push('CONTEXT:\n' + spec.context.map((ref) => `[${ref}]\n${resolveRef(ref, files)}`).join('\n\n'));
  }
  if (dependencySummaries.length) {
    sections.push('PRIOR ANALYSIS:\n' + dependencySummaries.map(([id, s]) => `[From ${id}]\n${s}`).join('\n\n'));
  }
  if (spec.notes?.trim()) sections.push(`NOTES:\n${spec.notes.trim()}`);
  return sections.join('\n\n---\n\n');
}

/** The SUMMARY section of a sub-agent's output (without its heading), or its opening when it has none. */
export function extractOutputSummary(output: string): string {
  const section = extractSection(output, 'SUMMARY');
  if (section) {
    const body = section.split('\n').slice(1).join('\n').trim();
    if (body) return body;
  }
  const text = output.trim();
  if (text.length <= 600) return text;
  const cut = text.slice(0, 600);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 400))}…`;
}
