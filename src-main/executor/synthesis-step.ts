import { parseSynthesis, planSynthesisUpdates, SynthesisContractError, type ProposedMemoryUpdate, type SynthesisContract } from './synthesis';

/**
 * What the executor does with a synthesis task's output (a skill with `metadata.category:
 * synthesis`): read its YAML blocks — asking the model once to repair them when they do not parse —
 * then write the updates they carry through the write pipeline, one by one, and report each
 * outcome in the task's result. A malformed output writes nothing.
 */

/** One memory write the executor asks for; the writer applies it as the sub-agent (guardrails, review gate, audit). */
export interface SynthesisWrite {
  kind: ProposedMemoryUpdate['kind'];
  target: string;
  path: string;
  content: string;
  summary: string;
}

/** What became of one write, as the write pipeline said it. */
export interface SynthesisWriteOutcome {
  ok: boolean;
  message: string;
  path?: string;
  id?: string | null;
  status?: string;
}

/**
 * Applies one write through the write pipeline (tools/write-pipeline.ts), injected so the executor
 * stays below the tools layer. A refusal (a limit, the review gate, a live trade) is an outcome,
 * not a throw; a throw is an infrastructure fault and fails the task.
 */
export type SynthesisWriter = (request: { sessionId: string; taskId: string; write: SynthesisWrite; signal: AbortSignal }) => Promise<SynthesisWriteOutcome>;

/** The message that asks for the one repair; it names the block and field that failed. */
export function synthesisRepairMessage(problem: string): string {
  return [
    `Forge could not read the YAML blocks of your synthesis: ${problem}`,
    'Nothing has been written to memory. Send the whole synthesis again, every section in the same order, with that block fixed (a yaml list inside one ```yaml fence, or []). Do not call tools.',
  ].join('\n');
}

/** Reads the contract; on a SynthesisContractError asks `repair` once and reads its answer (throws if still malformed). */
export async function readSynthesisOutput(
  text: string,
  repair: (problem: string) => Promise<string>,
): Promise<{ text: string; contract: SynthesisContract; repaired: boolean; firstProblem: string | null }> {
  let firstProblem: string;
  try {
    return { text, contract: parseSynthesis(text), repaired: false, firstProblem: null };
  } catch (e) {
    if (!(e instanceof SynthesisContractError)) throw e;
    firstProblem = e.message;
  }
  const again = await repair(firstProblem);
  return { text: again, contract: parseSynthesis(again), repaired: true, firstProblem };
}

/** One planned update and what happened to it: written, refused, or left for the PM. */
export interface SynthesisApplied {
  update: ProposedMemoryUpdate;
  outcome: SynthesisWriteOutcome | null;
}

/** Writes every update that carries record text, in order; the others (Expression actions, missing Views) are left for the PM. */
export async function applySynthesisUpdates(
  updates: ProposedMemoryUpdate[],
  write: (w: SynthesisWrite) => Promise<SynthesisWriteOutcome>,
): Promise<SynthesisApplied[]> {
  const out: SynthesisApplied[] = [];
  for (const u of updates) {
    if (u.proposedContent === null) {
      out.push({ update: u, outcome: null });
      continue;
    }
    out.push({ update: u, outcome: await write({ kind: u.kind, target: u.target, path: u.path, content: u.proposedContent, summary: u.summary }) });
  }
  return out;
}

/** Why a write was refused, in one line (the first limit broken, or the first line after "Not written"). */
export function refusalReason(message: string): string {
  const lines = message
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const limit = lines.find((l) => l.startsWith('- '));
  if (limit) return limit.slice(2);
  const first = lines[0] ?? 'refused';
  const dash = first.indexOf(' — ');
  return dash >= 0 ? first.slice(dash + 3) : (lines[1] ?? first);
}

/**
 * The `## MEMORY UPDATES` section appended to the result file, and one line for the task summary
 * (what collect and the Tasks screen show): what was written, what was refused and why, what the
 * PM must decide.
 */
export function synthesisReport(applied: SynthesisApplied[], actor: string): { section: string; line: string } {
  const written = applied.filter((a) => a.outcome?.ok);
  const refused = applied.filter((a) => a.outcome && !a.outcome.ok);
  const forPm = applied.filter((a) => !a.outcome);
  const name = (a: SynthesisApplied) => (a.outcome?.id && a.update.kind !== 'view_update' ? `${a.outcome.id} (${a.update.target})` : a.update.target);
  const lines = [`## MEMORY UPDATES`, `Written by Forge from the YAML blocks above, as ${actor}, through the same limits and review as any agent write.`];
  if (!applied.length) lines.push('- Nothing to update.');
  for (const a of written)
    lines.push(`- Written: ${a.update.summary} → ${a.outcome!.path ?? a.update.path}${a.outcome!.status ? ` (status ${a.outcome!.status})` : ''}`);
  for (const a of refused) lines.push(`- Not written: ${a.update.summary} — ${refusalReason(a.outcome!.message)}`);
  for (const a of forPm) lines.push(`- For the PM: ${a.update.summary}`);
  for (const a of applied) for (const w of a.update.warnings) lines.push(`- Warning (${a.update.target}): ${w}`);
  const parts: string[] = [];
  if (written.length) parts.push(`${written.length} written (${written.map(name).join(', ')})`);
  if (refused.length)
    parts.push(`${refused.length} not written (${refused.map((a) => `${a.update.target}: ${refusalReason(a.outcome!.message)}`).join('; ')})`);
  if (forPm.length) parts.push(`${forPm.length} for the PM (${forPm.map((a) => a.update.summary).join('; ')})`);
  return { section: lines.join('\n'), line: `Memory updates: ${parts.length ? parts.join('; ') : 'none'}.` };
}

/**
 * The whole step: read (one repair at most), plan against memory as it is now, write, report.
 * Returns the output to store (with its MEMORY UPDATES section) and the summary line; throws
 * SynthesisContractError when the output is still unreadable after the repair (nothing written).
 */
export async function completeSynthesis(o: {
  text: string;
  repair: (problem: string) => Promise<string>;
  files: { exists(path: string): boolean; readFile(path: string): string };
  today: string;
  write: (w: SynthesisWrite) => Promise<SynthesisWriteOutcome>;
  actor: string;
}): Promise<{ text: string; line: string; repaired: boolean }> {
  const read = await readSynthesisOutput(o.text, o.repair);
  const applied = await applySynthesisUpdates(planSynthesisUpdates(read.contract, o.files, o.today), o.write);
  const report = synthesisReport(applied, o.actor);
  return { text: `${read.text.replace(/\s*$/, '')}\n\n${report.section}\n`, line: report.line, repaired: read.repaired };
}
