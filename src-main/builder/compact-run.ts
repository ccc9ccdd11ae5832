import { toModelTool, type ToolDefinition } from '../tools/define';
import { Scratchpad } from '../mcp';
import type { BuildHost } from './build-host';
import { systemFor, toolsFor } from './build-context';
import { COMPACTION_PROMPT, compactConversation, transcriptForSummary } from './compaction';
import type { BuildRun, RunnerState } from './store-rows';
import { countBuilderContext } from './tokens';

/**
 * Compacting a running build's saved conversation: asks the compact-role model for the summary
 * (compaction.ts decides when and shapes the result, purely), stores the shorter conversation and
 * keeps the contracts read on the scratchpad. Apart from compaction.ts because this half has the
 * store, the model and the scratchpad; that half is text in, text out.
 */

export async function compactRun(host: BuildHost, run: BuildRun, state: RunnerState, before: number, signal: AbortSignal): Promise<void> {
  const { store } = host.deps;
  const helper = host.deps.helperModel?.('compact');
  const messages = store.messages(run.id);
  const compacted = await compactConversation(messages, {
    keepLast: 4,
    summarize: async (transcript) => {
      if (!helper) return transcript.slice(0, 6000);
      try {
        const r = await helper.call({
          role: 'compact',
          system: COMPACTION_PROMPT,
          messages: [{ role: 'user', content: transcript }],
          maxTokens: 2000,
          signal,
        });
        return r.text;
      } catch (e) {
        if (signal.aborted) throw e;
        // Without the summariser the middle is kept as its own compact transcript (long, but nothing invented).
        return transcriptForSummary(messages.slice(1, -4)).slice(0, 8000);
      }
    },
  });
  if (compacted.removedCount === 0) return;
  const system = systemFor(run.projectName, run.mode);
  const after = countBuilderContext({
    system,
    tools: toolsFor(run.mode).map((t) => toModelTool(t as ToolDefinition)),
    messages: compacted.messages,
  }).conversation;
  store.replaceMessages(run.id, compacted.messages, { turn: state.turns, beforeTokens: before, afterTokens: after });
  state.compactionPending = false;
  if (compacted.contractsRead.length) {
    state.contractsRead = [...new Set([...state.contractsRead, ...compacted.contractsRead])];
    await new Scratchpad(run.workDir).run('write', 'contracts_read', state.contractsRead.join(', '));
  }
  host.log(run.id, 'compaction', `Compacted ${compacted.removedCount} messages: ${before} → ${after} conversation tokens.`);
}
