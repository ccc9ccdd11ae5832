import { basename } from 'node:path';
import { isAppError } from '../common/errors';
import { MAX_LIST_LIMIT, sha256, type Actor, type ForgeFS } from '../fs';
import type { Model } from '../llm';
import { listSkillFiles, type SkillEntry, type SkillLoader } from '../skills';
import { clusterKey, clusterPk, DEFAULT_THRESHOLDS, type EvolutionThresholds, type PkCluster } from './cluster';
import { pkFromRecord, type ProcessKnowledge } from './pk';
import { AUTO_REJECTER, parseProposal, renderProposal, type ProposalRecord } from './proposal-record';
import { PROPOSAL_SYSTEM, PROPOSAL_TOOL, proposalInput, proposalRequest, proposalTool, type SkillFileText } from './proposal-prompt';
import { ProposalsService } from './proposals';
import { applyEdit, checkTargetFile } from './skill-edit';

/**
 * The MetaOptimizer (seed §11), run after the weekly retrospective: Process Knowledge that meets
 * the evidence bar (cluster.ts) becomes a structured skill-edit proposal from the proposal model,
 * stored pending as /memory/proposals/SEP-NNN.md. It never edits a skill itself — only the PM's
 * approval does (proposals.ts). Every cluster's fate is reported with the reason, and nothing the
 * model returns can make it throw.
 */

export interface MetaOptimizerOptions {
  fs: ForgeFS;
  skills: SkillLoader;
  /**
   * The model answering for the `proposal` role; null when none is configured (no API key): the
   * evidence bar is still worked out and reported, and a candidate that meets it says so.
   */
  model: Model | null;
  now?: () => Date;
  thresholds?: Partial<EvolutionThresholds>;
  /** Who the proposals are written as (default: scheduler). */
  actor?: Actor;
  /** Each report line as it happens (the scheduler's run log). */
  log?: (line: string) => void;
  signal?: AbortSignal;
}

export type ClusterVerdict =
  | 'proposed'
  | 'below_bar'
  | 'contradicted'
  | 'unknown_skill'
  | 'pending_exists'
  | 'no_new_evidence'
  | 'declined'
  | 'malformed'
  | 'model_failed'
  | 'no_model';

export interface ClusterReport extends PkCluster {
  /** The summed weight of the corroborating entries (each counted at or above the weight bar). */
  weight: number;
  /** What the bar asks: corroborating entries needed, and the weight an entry needs to count. */
  bar: { minCorroborations: number; minWeight: number };
  verdict: ClusterVerdict;
  /** Why, in a sentence. */
  detail: string;
  proposalId?: string;
}

export interface MetaOptimizerReport {
  /** Ids of the proposals written by this run. */
  proposals: string[];
  clusters: ClusterReport[];
  /** PK entries that could not count, with why. */
  ignored: { id: string; reason: string }[];
  /** The whole run as lines a PM can read. */
  notes: string[];
}

const MAX_TOKENS = 4000;
const clip = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export async function runMetaOptimizer(options: MetaOptimizerOptions): Promise<MetaOptimizerReport> {
  const { fs, skills } = options;
  const thresholds = { ...DEFAULT_THRESHOLDS, ...options.thresholds };
  const now = options.now ?? (() => new Date());
  const actor = options.actor ?? 'scheduler';
  const report: MetaOptimizerReport = { proposals: [], clusters: [], ignored: [], notes: [] };
  const note = (line: string) => {
    report.notes.push(line);
    options.log?.(line);
  };

  const pk = loadPk(fs, thresholds.minWeight);
  const weightOf = new Map(pk.map((p) => [p.id, p.weight ?? 0]));
  const { clusters, ignored } = clusterPk(pk, thresholds);
  report.ignored = ignored;
  for (const i of ignored) note(`${i.id} not counted: ${i.reason}.`);

  // Stale pending proposals are rejected first, so a cluster whose edit went stale can be proposed afresh.
  const service = new ProposalsService({ fs, skills, now, actor });
  await service.listProposals();
  const earlier = proposalsByCluster(fs);

  for (const cluster of clusters) {
    const weight = Math.round(cluster.pkIds.reduce((sum, id) => sum + (weightOf.get(id) ?? 0), 0) * 100) / 100;
    const bar = { minCorroborations: thresholds.minCorroborations, minWeight: thresholds.minWeight };
    const done = (verdict: ClusterVerdict, detail: string, proposalId?: string) => {
      report.clusters.push({ ...cluster, weight, bar, verdict, detail, ...(proposalId ? { proposalId } : {}) });
      note(`${cluster.skill} — ${cluster.direction} ${cluster.claim} [${cluster.pkIds.join(', ')}]: ${detail}`);
    };
    if (cluster.pkIds.length < thresholds.minCorroborations) {
      done('below_bar', `${cluster.pkIds.length} of ${thresholds.minCorroborations} corroborations; no proposal yet.`);
      continue;
    }
    if (cluster.contradictions.length) {
      done('contradicted', `contradicted by ${cluster.contradictions.join(', ')}; no proposal while the lesson is disputed.`);
      continue;
    }
    const entry = skills.find(cluster.skill);
    if (!entry) {
      done('unknown_skill', `no installed skill is named "${cluster.skill}".`);
      continue;
    }
    const before = earlier.get(clusterKey({ ...cluster, skill: entry.name })) ?? [];
    const pending = before.find((p) => p.status === 'pending');
    if (pending) {
      done('pending_exists', `${pending.id} is still waiting for the PM; not proposing twice.`);
      continue;
    }
    // A decision the PM made stands until new evidence arrives.
    const decided = before.find((p) => p.status !== 'pending' && p.rejectedBy !== AUTO_REJECTER && cluster.pkIds.every((id) => p.corroborating.includes(id)));
    if (decided) {
      done('no_new_evidence', `${decided.id} was ${decided.status} on the same evidence; waiting for new corroboration.`);
      continue;
    }
    if (!options.model) {
      done('no_model', 'meets the evidence bar; the proposal model needs an Anthropic API key (Settings → API keys) to write the edit.');
      continue;
    }
    const outcome = await propose({ ...options, model: options.model }, { ...cluster, skill: entry.name }, entry, now, actor);
    if (outcome.verdict === 'proposed') report.proposals.push(outcome.proposalId!);
    done(outcome.verdict, outcome.detail, outcome.proposalId);
  }
  if (!clusters.length) note('No Process Knowledge at or above the weight bar states a stance; nothing to propose.');
  return report;
}

/** PK entries with weight at or above the bar — the filter runs in SQL. */
function loadPk(fs: ForgeFS, minWeight: number): ProcessKnowledge[] {
  const out: ProcessKnowledge[] = [];
  for (let offset = 0; ; offset += MAX_LIST_LIMIT) {
    const page = fs.listDir('/memory/pk/', `weight>=${minWeight}`, { limit: MAX_LIST_LIMIT, offset });
    for (const e of page.entries) {
      const info = e.id ? fs.recordInfo(e.path) : null;
      if (info) out.push(pkFromRecord(info));
    }
    if (offset + MAX_LIST_LIMIT >= page.total) break;
  }
  return out;
}

function proposalsByCluster(fs: ForgeFS): Map<string, ProposalRecord[]> {
  const out = new Map<string, ProposalRecord[]>();
  for (let offset = 0; ; offset += MAX_LIST_LIMIT) {
    const page = fs.listDir('/memory/proposals/', undefined, { limit: MAX_LIST_LIMIT, offset });
    for (const e of page.entries) {
      if (!e.id) continue;
      const p = parseProposal(fs.readFile(e.path));
      if (!p.skill || !p.claim || !p.direction) continue;
      const key = clusterKey({ skill: p.skill, claim: p.claim, direction: p.direction });
      out.set(key, [...(out.get(key) ?? []), p]);
    }
    if (offset + MAX_LIST_LIMIT >= page.total) break;
  }
  return out;
}

type Outcome = { verdict: ClusterVerdict; detail: string; proposalId?: string };

/** Asks the proposal model for one structured edit and stores it if, and only if, it can be applied. */
async function propose(
  options: MetaOptimizerOptions & { model: Model },
  cluster: PkCluster,
  entry: SkillEntry,
  now: () => Date,
  actor: Actor,
): Promise<Outcome> {
  const { fs, model } = options;
  const folder = basename(entry.dir);
  const files = skillFiles(fs, folder, entry.dir);
  const pk = cluster.pkIds.map((id) => ({ id, content: fs.readFile(`/memory/pk/${id}.md`) }));
  let result: Awaited<ReturnType<Model['call']>>;
  try {
    result = await model.call({
      role: 'proposal',
      system: PROPOSAL_SYSTEM,
      messages: [{ role: 'user', content: proposalRequest(cluster, files, pk) }],
      tools: [proposalTool],
      maxTokens: MAX_TOKENS,
      signal: options.signal,
    });
  } catch (e) {
    if (options.signal?.aborted) throw e;
    return { verdict: 'model_failed', detail: `the proposal model failed (${clip((e as Error)?.message ?? String(e))}); no proposal, tried again next run.` };
  }
  const calls = result.toolCalls.filter((c) => c.name === PROPOSAL_TOOL);
  if (!calls.length) {
    const said = result.text.trim();
    return { verdict: 'declined', detail: `the proposal model made no structured proposal${said ? ` (it said: "${clip(said, 200)}")` : ''}.` };
  }
  const call = calls[0]!;
  const malformed = (why: string): Outcome => ({ verdict: 'malformed', detail: `the model's proposal was discarded: ${why}.` });
  if (call.inputParseError) return malformed(`its arguments were not valid JSON (${clip(call.inputParseError, 120)})`);
  const parsed = proposalInput.safeParse(call.input);
  if (!parsed.success) {
    return malformed(
      parsed.error.issues
        .slice(0, 4)
        .map((i) => `${i.path.join('.') || 'input'} ${i.message}`)
        .join('; '),
    );
  }
  const p = parsed.data;
  let target: string;
  try {
    target = checkTargetFile(p.target_file);
  } catch (e) {
    if (isAppError(e)) return malformed(e.message.replace(/\.$/, ''));
    throw e;
  }
  const foreign = p.pk_ids.filter((id) => !cluster.pkIds.includes(id));
  if (foreign.length) return malformed(`it cites ${foreign.join(', ')}, which are not among the corroborating entries ${cluster.pkIds.join(', ')}`);
  const skillPath = `/skills/${folder}/${target}`;
  if (!fs.exists(skillPath)) return malformed(`${target} does not exist in the ${entry.name} skill`);
  const current = fs.readFile(skillPath);
  if (p.old_text === p.new_text) return malformed('its replacement is identical to the quoted text');
  const edit = applyEdit(current, p.old_text, p.new_text);
  if (!edit.ok) return malformed(`${edit.reason} (${target})`);

  const content = renderProposal({
    title: p.title ?? `${entry.name}: ${cluster.direction} ${cluster.claim}`,
    skill: entry.name,
    targetFile: target,
    claim: cluster.claim,
    direction: cluster.direction,
    pkIds: [...new Set(p.pk_ids)],
    corroborating: cluster.pkIds,
    rationale: p.rationale,
    createdAt: now().toISOString(),
    baseHash: sha256(current),
    oldText: p.old_text,
    newText: p.new_text,
    model: result.model || model.id,
  });
  const written = await fs.writeFile('/memory/proposals/new.md', content, { actor });
  return { verdict: 'proposed', detail: `proposed ${written.id} (${target}), waiting for the PM.`, proposalId: written.id! };
}

/** SKILL.md, then the templates and references a proposal may edit, as the model must quote them. */
function skillFiles(fs: ForgeFS, folder: string, dir: string): SkillFileText[] {
  const paths = ['SKILL.md'];
  for (const r of listSkillFiles(dir)) {
    try {
      paths.push(checkTargetFile(r.path));
    } catch {
      // Scripts, assets and other files are not offered: a proposal may not edit them.
    }
  }
  return [...new Set(paths)].filter((p) => fs.exists(`/skills/${folder}/${p}`)).map((p) => ({ path: p, text: fs.readFile(`/skills/${folder}/${p}`) }));
}
