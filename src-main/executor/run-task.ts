import { readFileSync } from 'node:fs';
import { sha256 } from '../fs';
import { ModelError } from '../llm/errors';
import type { LoadedSkillWithFiles } from '../skills';
import { skillSection } from '../skills';
import { buildSubAgentMessage, buildSubAgentSystem, extractOutputSummary } from './context';
import { grantTools } from './grants';
import { abortable } from './retry';
import { SynthesisContractError } from './synthesis';
import { completeSynthesis, synthesisRepairMessage } from './synthesis-step';
import type { Live, TaskHost } from './task-host';
import type { NamedTool, TaskFailure } from './types';
import { CONTRASTIVE_VALIDATION_PROMPT, parseVerdict, STANDARD_VALIDATION_PROMPT, validationUserMessage } from './validation';

/**
 * One task's run, start to end: wait for its dependencies, take a slot and start the time budget,
 * load the skill and narrow the tools, run the sub-agent's bounded loop, read a synthesis's memory
 * updates, save the output, validate it. Apart from executor.ts (dispatch, reads, cancel and the
 * task's bookkeeping) because this is the one path a sub-agent takes; every state change still goes
 * through the host's update/finish, so the executor stays the only writer of a task's record.
 */

export async function runTask<T extends NamedTool, C>(host: TaskHost<T, C>, l: Live): Promise<void> {
  const { sessionId, spec } = l.rec;
  const signal = l.controller.signal;
  let holding = false;
  let timer: NodeJS.Timeout | undefined;
  try {
    // 1. Dependencies: wait, then take their summaries (a failed one fails this task with its reason).
    const summaries: [string, string][] = [];
    for (const dep of spec.dependsOn) {
      const depLive = host.liveTask(sessionId, dep);
      const r = depLive ? await abortable(depLive.done, signal) : host.store.get(sessionId, dep);
      if (r?.status !== 'ok') {
        const why = !r ? 'was not found' : r.status === 'cancelled' ? 'was cancelled' : `failed: ${r.error ?? 'no reason recorded'}`;
        host.finish(
          l,
          {
            status: 'failed',
            failure: 'dependency',
            error: `Dependency ${dep} ${why}. Retry ${dep} (dispatch with retry_of="${dep}"), then retry this task.`,
          },
          'failed',
        );
        return;
      }
      summaries.push([dep, r.summary ?? '(no summary)']);
    }
    if (spec.dependsOn.length) host.update(l, { status: 'queued' }, { kind: 'dependencies_met' });

    // 2. A slot (bounded concurrency), then the clock for the time budget starts.
    await host.slots.acquire(signal);
    holding = true;
    timer = setTimeout(() => host.stop(l, 'budget_time'), host.budget.timeMs);
    timer.unref?.();

    // 3. Skill, prompt, tools — tools narrowed here, whatever the factory offered.
    let skill: LoadedSkillWithFiles;
    try {
      skill = host.skillCache.load(spec.skill);
    } catch (e) {
      host.finish(l, { status: 'failed', failure: 'skill', error: (e as Error).message }, 'failed');
      return;
    }
    const scriptsAllowedByPm = skill.scripts.length > 0 && (host.opts.skills.scriptsAllowed?.(skill.name) ?? false);
    const { granted, refused } = grantTools(skill.allowedTools, { scriptsAllowedByPm });
    host.update(
      l,
      { status: 'running', startedAt: host.iso() },
      {
        kind: 'started',
        detail: `tools: ${granted.join(', ')}${refused.length ? `; not granted to sub-agents: ${refused.join(', ')}` : ''}`,
      },
    );
    host.store.event(sessionId, spec.id, host.iso(), 'skill_loaded', skillLoadedDetail(skill));
    const files = host.opts.files.forSession(sessionId);
    const made = host.opts.toolsFor({ sessionId, taskId: spec.id, skill: skill.name, skillDir: skill.dir, allowed: granted, signal });
    const tools = made.tools.filter((t) => granted.includes(t.name));
    const model = host.modelFor(l);
    // A synthesis skill's output carries memory updates: it runs under the synthesis role and is read below.
    const synthesis = skill.metadata?.category === 'synthesis';
    const system = [
      {
        text: buildSubAgentSystem(
          skill,
          tools.map((t) => t.name),
        ),
        stable: true,
      },
    ];
    const brief = buildSubAgentMessage(spec, summaries, files);

    // 4. The sub-agent runs the same bounded loop as the analyst.
    const result = await host.opts.runLoop({
      model,
      role: synthesis ? 'synthesis' : 'subagent',
      system,
      messages: [{ role: 'user', content: brief }],
      tools,
      toolContext: made.context,
      maxRounds: host.opts.maxRounds ?? 12,
      maxTokens: host.opts.maxTokensPerCall ?? 4096,
      signal,
      onEvent: (e) => {
        if (e.type === 'usage' && e.usage) host.addUsage(l, e.usage, e.round ?? 0);
        else if (e.type === 'tool_call' && e.call) host.store.event(sessionId, spec.id, host.iso(), 'tool_call', e.call.name);
      },
    });
    if (result.stop === 'max_rounds') {
      host.finish(
        l,
        {
          status: 'failed',
          failure: 'max_rounds',
          error: `The sub-agent was still calling tools after ${result.rounds} rounds and gave no answer. Narrow the objective, then retry.`,
        },
        'failed',
      );
      return;
    }
    if (!result.text.trim()) {
      host.finish(
        l,
        { status: 'failed', failure: 'output', error: "The sub-agent answered with no text. Retry, or check the skill's Output Format." },
        'failed',
      );
      return;
    }

    // 5. A synthesis: its YAML read (one repair call at most) and its updates written, each outcome reported.
    let output = result.text;
    let rounds = result.rounds;
    let memoryLine = '';
    if (synthesis) {
      try {
        const done = await completeSynthesis({
          text: output,
          repair: async (problem) => {
            host.store.event(sessionId, spec.id, host.iso(), 'synthesis_repair', problem);
            const messages = [
              { role: 'user' as const, content: brief },
              { role: 'assistant' as const, content: output },
              { role: 'user' as const, content: synthesisRepairMessage(problem) },
            ];
            const answer = await model.call({ role: 'synthesis', system, messages, maxTokens: host.opts.maxTokensPerCall ?? 4096, signal });
            host.addUsage(l, answer.usage, ++rounds);
            return answer.text;
          },
          files,
          today: host.iso().slice(0, 10),
          write: async (w) => {
            signal.throwIfAborted();
            const out = host.opts.writeSynthesis
              ? await host.opts.writeSynthesis({ sessionId, taskId: spec.id, write: w, signal })
              : { ok: false, message: 'Not written — memory writes are not connected in this run.' };
            host.store.event(sessionId, spec.id, host.iso(), out.ok ? 'memory_written' : 'memory_refused', `${w.summary}: ${out.message}`.slice(0, 2000));
            return out;
          },
          actor: `subagent:${spec.id}`,
        });
        output = done.text;
        memoryLine = done.line;
      } catch (e) {
        if (!(e instanceof SynthesisContractError)) throw e;
        host.finish(
          l,
          {
            status: 'failed',
            failure: 'output',
            rounds,
            error: `The synthesis's YAML could not be read, even after one repair: ${e.message} Nothing was written to memory. Retry the task; the retry's notes carry this error.`,
          },
          'failed',
        );
        return;
      }
    }

    // 6. Full output to /session/results/<id>.md; SUMMARY for collect and dependants.
    const resultPath = `/session/results/${spec.id}.md`;
    await files.writeFile(resultPath, output, { actor: `subagent:${spec.id}`, taskId: spec.id });
    const summary = [extractOutputSummary(output), memoryLine].filter(Boolean).join('\n');
    host.update(l, { resultPath, summary }, { kind: 'output_saved', detail: resultPath });

    // 7. Validation (standard or contrastive) against the skill's Eval Criteria.
    let validation = null;
    if (spec.validate || spec.validateContrastive) {
      const contrastive = spec.validateContrastive;
      host.update(l, { status: 'validating' }, { kind: 'validating', detail: contrastive ? 'contrastive' : 'standard' });
      try {
        const answer = await model.call({
          role: contrastive ? 'contrastive' : 'validation',
          system: contrastive ? CONTRASTIVE_VALIDATION_PROMPT : STANDARD_VALIDATION_PROMPT,
          messages: [{ role: 'user', content: validationUserMessage(spec.objective, skillSection(skill.body, 'Eval Criteria') ?? '', output) }],
          maxTokens: 800,
          signal,
        });
        host.addUsage(l, answer.usage, l.rec.rounds);
        validation = parseVerdict(answer.text, contrastive);
      } catch (e) {
        if (l.stopReason || signal.aborted) throw e;
        validation = {
          contrastive,
          verdict: 'unclear' as const,
          feedback: `Validation could not run: ${(e as Error).message}`,
          counterargument: '',
          raw: '',
        };
      }
    }
    host.finish(l, { status: 'ok', validation, rounds }, 'finished', validation ? `verdict ${validation.verdict}` : '');
  } catch (e) {
    if (l.settled) return; // cancelled or stopped by a budget: already recorded
    if (l.stopReason) return host.stop(l, l.stopReason);
    const failure: TaskFailure = e instanceof ModelError ? 'model' : 'internal';
    // A ModelError's message already says how many attempts were really made.
    host.finish(l, { status: 'failed', failure, error: (e as Error)?.message ?? String(e) }, 'failed');
  } finally {
    if (timer) clearTimeout(timer);
    if (holding) host.slots.release();
  }
}

/**
 * Which text of the skill a sub-agent ran on: the hash of SKILL.md as loaded, so decision lineage
 * can name the skill version (evolution/versions.ts keeps each version's hash) after later edits.
 */
function skillLoadedDetail(skill: LoadedSkillWithFiles): string {
  let hash: string | null = null;
  try {
    hash = sha256(readFileSync(skill.file, 'utf8'));
  } catch {
    // Unreadable now (moved mid-run): the step says the text was not recorded.
  }
  return JSON.stringify({ skill: skill.name, file: 'SKILL.md', hash });
}
