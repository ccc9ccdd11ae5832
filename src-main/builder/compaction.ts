import { InvalidInputError } from '../common/errors';
import type { ChatMessage, ContentBlock, ToolResultBlock, ToolUseBlock } from '../llm/types';

/**
 * Compaction of a long build conversation: the first message and the last few stay, the middle
 * becomes one summary written by the compact-role model. The summary names the contracts the
 * builder has read (taken from its tool calls, not from the model's memory) and says they can be
 * fetched again — after compaction their text is gone from context, but not from Forge/Contracts/.
 */

export type CompactionDecision = 'now' | 'wait' | 'none';

export interface CompactionDecisionInput {
  /** Tokens the conversation occupies (the meter's "conversation" part). */
  conversationTokens: number;
  /** The budget those tokens are measured against. */
  limitTokens: number;
  /** Compaction becomes due past this share of the limit (0–1). */
  share: number;
  /** The answer just processed ended a task (TASK DONE) or a phase (sign-off). */
  atBoundary: boolean;
  /** Past this share compaction happens even mid-task; default share + 0.1. */
  hardShare?: number;
}

/**
 * Past `share`, compact at the next TASK DONE or sign-off boundary (a summary taken mid-task loses
 * the thread the builder is holding); past the hard ceiling, compact now rather than overflow.
 */
export function compactionDecision(input: CompactionDecisionInput): CompactionDecision {
  const { conversationTokens, limitTokens, share, atBoundary } = input;
  if (!(limitTokens > 0)) throw new InvalidInputError(`The context limit must be a positive number of tokens, not ${limitTokens}.`);
  if (!(share > 0 && share <= 1)) throw new InvalidInputError(`The compaction share must be between 0 and 1, not ${share}.`);
  const hard = input.hardShare ?? Math.min(1, share + 0.1);
  if (!(hard >= share)) throw new InvalidInputError(`The hard compaction ceiling (${hard}) must not be below the share (${share}).`);
  const used = conversationTokens / limitTokens;
  if (used < share) return 'none';
  if (atBoundary || used >= hard) return 'now';
  return 'wait';
}

// ── What the builder has read ────────────────────────────────────────────────

const SUMMARY_HEADER = '[Forge — summary of earlier turns]';
const READ_LINE = 'Already read with the forge tools: ';
const GOVERNANCE = ['builder_contract', 'boundaries', 'stack'];

const blocksOf = (m: ChatMessage): ContentBlock[] => (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content);
const isSummaryBlock = (b: ContentBlock) => b.type === 'text' && b.text.startsWith(SUMMARY_HEADER);

/** The label of a phase window in the list contractsRead returns. */
export const phaseWindowLabel = (n: number | string) => `phase window ${n}`;

/**
 * What the builder has fetched, in first-read order: contract names ("blueprint"), phase windows
 * ("phase window 0") and "forge_get_summary". Taken from its tool calls — a call whose result was
 * an error, such as asking for "phases", does not count — and from the summary of an earlier
 * compaction, so a second compaction still remembers what the first one removed.
 */
export function contractsRead(messages: ChatMessage[]): string[] {
  const failed = new Set<string>();
  for (const m of messages) for (const b of blocksOf(m)) if (b.type === 'tool_result' && b.isError) failed.add(b.toolUseId);
  const read = new Set<string>();
  for (const m of messages) {
    for (const b of blocksOf(m)) {
      if (b.type === 'text' && isSummaryBlock(b)) {
        const line = b.text.split('\n').find((l) => l.startsWith(READ_LINE));
        for (const r of (line ?? '').slice(READ_LINE.length).replace(/\.$/, '').split(',')) if (r.trim()) read.add(r.trim());
      }
      if (b.type !== 'tool_use' || failed.has(b.id)) continue;
      if (b.name === 'forge_get_contract' && typeof b.input.name === 'string') read.add(b.input.name);
      else if (b.name === 'forge_get_governance') for (const c of GOVERNANCE) read.add(c);
      else if (b.name === 'forge_get_phase_window' && (typeof b.input.phase_number === 'number' || typeof b.input.phase_number === 'string'))
        read.add(phaseWindowLabel(b.input.phase_number));
      else if (b.name === 'forge_get_summary' || b.name === 'forge_summary') read.add('forge_get_summary');
    }
  }
  return [...read];
}

/** The summary's lines on what was read (contractsRead reads them back after the next compaction). */
export function describeContractsRead(read: string[]): string {
  if (!read.length) return 'No contract has been fetched with the forge tools so far.';
  return `${READ_LINE}${read.join(', ')}.\nTheir text is no longer in this conversation. Fetch again whatever you need (forge_get_contract, forge_get_phase_window) rather than working from memory; your forge_scratchpad notes are unchanged.`;
}

// ── The transcript the compact model reads ───────────────────────────────────

const clip = (s: string, max: number) => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length <= max ? one : `${one.slice(0, max)}…`;
};

/** The middle of the conversation, compactly: text kept (clipped), one line per tool call, tool results clipped. */
export function transcriptForSummary(messages: ChatMessage[]): string {
  const lines: string[] = [];
  for (const m of messages) {
    const who = m.role === 'user' ? 'USER' : 'BUILDER';
    for (const b of blocksOf(m)) {
      if (b.type === 'text') {
        if (b.text.trim()) lines.push(`${who}: ${clip(b.text, 1500)}`);
      } else if (b.type === 'tool_use') lines.push(`${who} → ${b.name}(${clip(JSON.stringify(b.input), 200)})`);
      else lines.push(`  ← ${b.isError ? 'error: ' : ''}${clip(b.content, 300)}`);
    }
  }
  return lines.join('\n');
}

/** System prompt of the compact-role model. */
export const COMPACTION_PROMPT = `You condense the middle of an autonomous software build's conversation into a record the builder will read in its place. The builder keeps the first message and its last few turns; everything else it knows about the earlier turns will come from what you write.

Keep, in short sections: the current phase (number and name); the plan items and which are marked done; each file created or changed, one line on what it holds; decisions taken and why; the last test result, what still fails and what was already tried; any answer the user gave to a STOP; open problems.
Leave out: contract text (the builder can fetch it again), file contents, and tool output beyond the line that matters.

Write in the past tense, as a record of what happened — not as instructions. Plain text, at most 400 words.`;

// ── Compaction ───────────────────────────────────────────────────────────────

export interface CompactOptions {
  /** How many of the newest messages stay verbatim (more when a tool call and its result would be split). */
  keepLast?: number;
  /** Writes the summary of a transcript (the compact-role model). */
  summarize: (transcript: string) => Promise<string>;
}

export interface CompactResult {
  messages: ChatMessage[];
  summary: string;
  /** Everything fetched so far (see contractsRead), named in the summary. */
  contractsRead: string[];
  /** Messages of the original conversation folded into the summary (0: nothing to compact). */
  removedCount: number;
}

/**
 * Replaces the middle of the conversation with one summary. The result is a valid Messages-API
 * conversation: it starts with the user, roles alternate, and every tool_result follows the
 * assistant turn holding its tool_use — the kept window starts on an assistant turn, moved earlier
 * when needed so no pair is split. The summary rides in the first (user) message as its own text
 * block, framed as Forge's record rather than as a request. Inputs are not modified; when the
 * summariser fails, the error propagates and the caller still has the whole conversation.
 */
export async function compactConversation(messages: ChatMessage[], options: CompactOptions): Promise<CompactResult> {
  const keepLast = options.keepLast ?? 4;
  if (!Number.isInteger(keepLast) || keepLast < 1) throw new InvalidInputError(`keepLast must be a positive whole number, not ${keepLast}.`);
  const first = messages[0];
  if (first?.role !== 'user') throw new InvalidInputError('A build conversation starts with the user message; this one does not.');
  const read = contractsRead(messages);
  let start = messages.length - keepLast;
  while (start > 1 && messages[start]!.role !== 'assistant') start--;
  if (start <= 1) return { messages, summary: '', contractsRead: read, removedCount: 0 };

  const middle = messages.slice(1, start);
  const firstBlocks = blocksOf(first);
  const earlier = firstBlocks.filter(isSummaryBlock).map((b) => (b as { text: string }).text);
  const transcript = [...earlier.map((t) => `EARLIER SUMMARY:\n${t}`), transcriptForSummary(middle)].join('\n\n');
  const written = (await options.summarize(transcript)).trim();
  const summary = written || fallbackDigest(middle);
  const block = `${SUMMARY_HEADER}\nForge folded ${middle.length} earlier messages of this build into the record below to free context. It describes what already happened; it is not a new request. Carry on with the current phase and plan.\n\n${summary}\n\n${describeContractsRead(read)}`;
  const head: ChatMessage = { role: 'user', content: [...firstBlocks.filter((b) => !isSummaryBlock(b)), { type: 'text', text: block }] };
  return { messages: mergeSameRole([head, ...messages.slice(start)]), summary, contractsRead: read, removedCount: middle.length };
}

/** When the summariser returns nothing, the last tool calls at least say where the build was. */
function fallbackDigest(middle: ChatMessage[]): string {
  const lines = transcriptForSummary(middle).split('\n');
  return `(No summary was written; the last steps were:)\n${lines.slice(-20).join('\n')}`;
}

/** Adjacent messages of one role become one (tool results first in a user message, as the API requires). */
function mergeSameRole(messages: ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of messages) {
    const prev = out[out.length - 1];
    if (!prev || prev.role !== m.role) {
      out.push(m);
      continue;
    }
    const blocks = [...blocksOf(prev), ...blocksOf(m)];
    const results = blocks.filter((b) => b.type === 'tool_result');
    out[out.length - 1] = { role: m.role, content: m.role === 'user' ? [...results, ...blocks.filter((b) => b.type !== 'tool_result')] : blocks };
  }
  return out;
}

/**
 * What would make the Messages API refuse this conversation: a non-user start, roles that do not
 * alternate, a tool_result without its tool_use in the assistant turn before it, or a tool_use
 * without its result in the next turn. Empty when valid.
 */
export function conversationProblems(messages: ChatMessage[]): string[] {
  const problems: string[] = [];
  if (messages[0] && messages[0].role !== 'user') problems.push('message 0 is not from the user');
  messages.forEach((m, i) => {
    const blocks = blocksOf(m);
    if (i > 0 && messages[i - 1]!.role === m.role) problems.push(`messages ${i - 1} and ${i} are both from the ${m.role}`);
    const results = blocks.filter((b): b is ToolResultBlock => b.type === 'tool_result');
    if (results.length) {
      if (m.role !== 'user') problems.push(`message ${i} holds a tool_result but is from the assistant`);
      const prev = i > 0 ? blocksOf(messages[i - 1]!) : [];
      const uses = new Set(prev.filter((b): b is ToolUseBlock => b.type === 'tool_use').map((b) => b.id));
      for (const r of results) if (!uses.has(r.toolUseId)) problems.push(`message ${i}: tool_result ${r.toolUseId} has no tool_use in the turn before`);
      const firstOther = blocks.findIndex((b) => b.type !== 'tool_result');
      if (firstOther >= 0 && blocks.slice(firstOther).some((b) => b.type === 'tool_result')) problems.push(`message ${i}: a tool_result comes after text`);
    }
    const uses = blocks.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    if (uses.length && i < messages.length - 1) {
      const next = new Set(
        blocksOf(messages[i + 1]!)
          .filter((b): b is ToolResultBlock => b.type === 'tool_result')
          .map((b) => b.toolUseId),
      );
      for (const u of uses) if (!next.has(u.id)) problems.push(`message ${i}: tool_use ${u.id} has no tool_result in the next turn`);
    }
  });
  return problems;
}
