import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { z } from 'zod';
import { InvalidInputError } from '../common/errors';
import { ModelError, ScriptDivergedError } from './errors';
import { countContextTokens } from './tokens';
import type { ChatMessage, ContentBlock, Model, ModelCallRequest, ModelResult, ModelStreamEvent, ToolCall, ToolResultBlock } from './types';
import { textOf } from './types';

/**
 * A scenario file: the turns a model "returns", in order, each with optional checks on what it was
 * sent. Used by tests and the offline demo; it never stands in for Claude silently (its id starts
 * with `scripted:` and `isScripted` is true, so every screen can label the run a demo).
 */
const expectSchema = z
  .object({
    /** Text (or texts) the last message sent must contain, tool results included. */
    contains: z.union([z.string(), z.array(z.string())]).optional(),
    /** The last message must carry a tool result for a call to this tool. */
    toolResult: z.string().optional(),
    /** With toolResult: whether that result must be (or must not be) an error. */
    isError: z.boolean().optional(),
    /** The routing role the caller asked for. */
    role: z.string().optional(),
  })
  .strict();

const turnSchema = z
  .object({
    expect: expectSchema.optional(),
    reply: z
      .object({
        text: z.string().default(''),
        toolCalls: z
          .array(z.object({ id: z.string().optional(), name: z.string().min(1), input: z.record(z.string(), z.unknown()).default({}) }).strict())
          .default([]),
        stopReason: z.enum(['end_turn', 'max_tokens', 'tool_use']).optional(),
      })
      .strict(),
  })
  .strict();

export const scenarioSchema = z.object({ name: z.string().min(1).optional(), turns: z.array(turnSchema).min(1) }).strict();
export type Scenario = z.infer<typeof scenarioSchema>;
export type ScenarioInput = z.input<typeof scenarioSchema>;

export function parseScenario(value: unknown, fallbackName = 'scenario'): Scenario & { name: string } {
  const parsed = scenarioSchema.safeParse(value);
  if (!parsed.success) {
    throw new InvalidInputError(
      `The scenario "${fallbackName}" is not valid; fix the fields listed.`,
      parsed.error.issues.map((i) => ({ path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)), message: i.message })),
    );
  }
  return { ...parsed.data, name: parsed.data.name ?? fallbackName };
}

export function loadScenario(file: string): Scenario & { name: string } {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new InvalidInputError(`Could not read the scenario file ${file}: ${(e as Error).message}`);
  }
  return parseScenario(json, basename(file).replace(/\.json$/, ''));
}

export interface ScriptedModelOptions {
  /** Characters per streamed text delta (default 16). */
  chunkSize?: number;
}

export class ScriptedModel implements Model {
  readonly isScripted = true;
  readonly id: string;
  private readonly scenario: Scenario & { name: string };
  private next = 0;
  private lastCalls: ToolCall[] = [];

  constructor(
    scenario: ScenarioInput | (Scenario & { name: string }),
    private readonly options: ScriptedModelOptions = {},
  ) {
    this.scenario = parseScenario(scenario, (scenario as { name?: string }).name ?? 'scenario');
    this.id = `scripted:${this.scenario.name}`;
  }

  /** Turns replayed so far. */
  get turnsUsed(): number {
    return this.next;
  }

  /** True when every scripted turn has been replayed; a test asserts this at the end. */
  get finished(): boolean {
    return this.next >= this.scenario.turns.length;
  }

  async call(request: ModelCallRequest): Promise<ModelResult> {
    return this.stream(request, () => {});
  }

  async stream(request: ModelCallRequest, onEvent: (event: ModelStreamEvent) => void): Promise<ModelResult> {
    checkAborted(request.signal);
    const turnNo = this.next + 1;
    const turn = this.scenario.turns[this.next];
    if (!turn) {
      throw this.diverged(turnNo, `the script has ${this.scenario.turns.length} turn(s) but the model was called again`);
    }
    this.checkToolResults(turnNo, request.messages);
    this.checkExpect(turnNo, turn.expect, request);
    this.next++;

    const content: ContentBlock[] = [];
    const toolCalls: ToolCall[] = [];
    const chunk = this.options.chunkSize ?? 16;
    if (turn.reply.text) {
      content.push({ type: 'text', text: turn.reply.text });
      for (let i = 0; i < turn.reply.text.length; i += chunk) {
        checkAborted(request.signal);
        onEvent({ type: 'text_delta', index: 0, text: turn.reply.text.slice(i, i + chunk) });
        await Promise.resolve();
      }
    }
    turn.reply.toolCalls.forEach((c, k) => {
      const call: ToolCall = { id: c.id ?? `toolu_scripted_${turnNo}_${k + 1}`, name: c.name, input: c.input };
      const index = content.length;
      content.push({ type: 'tool_use', ...call });
      toolCalls.push(call);
      onEvent({ type: 'tool_input_delta', index, id: call.id, name: call.name, partialJson: JSON.stringify(call.input) });
      onEvent({ type: 'tool_call', index, call });
    });
    checkAborted(request.signal);
    this.lastCalls = toolCalls;

    const context = countContextTokens(request);
    const usage = {
      inputTokens: context.total,
      outputTokens: countContextTokens({ system: '', messages: [{ role: 'assistant', content }] }).conversation,
      cacheWriteTokens: 0,
      cacheReadTokens: 0,
      costUsd: 0,
    };
    const result: ModelResult = {
      content,
      toolCalls,
      text: textOf(content),
      stopReason: turn.reply.stopReason ?? (toolCalls.length ? 'tool_use' : 'end_turn'),
      usage,
      model: this.id,
    };
    onEvent({ type: 'usage', usage });
    onEvent({ type: 'done', result });
    return result;
  }

  /** After a turn that called tools, the next request must answer exactly those calls. */
  private checkToolResults(turnNo: number, messages: ChatMessage[]): void {
    const results = lastUserBlocks(messages).filter((b): b is ToolResultBlock => b.type === 'tool_result');
    const expected = this.lastCalls.map((c) => c.id);
    const got = results.map((r) => r.toolUseId);
    const missing = expected.filter((id) => !got.includes(id));
    const unexpected = got.filter((id) => !expected.includes(id));
    if (missing.length || unexpected.length) {
      const name = (id: string) => this.lastCalls.find((c) => c.id === id)?.name ?? 'unknown tool';
      const parts = [];
      if (missing.length) parts.push(`no tool result for ${missing.map((id) => `${name(id)} (${id})`).join(', ')}`);
      if (unexpected.length) parts.push(`unexpected tool result for ${unexpected.join(', ')}`);
      throw this.diverged(turnNo, parts.join('; '));
    }
  }

  private checkExpect(turnNo: number, expect: Scenario['turns'][number]['expect'], request: ModelCallRequest): void {
    if (!expect) return;
    if (expect.role !== undefined && request.role !== expect.role) {
      throw this.diverged(turnNo, `expected a call for role "${expect.role}" but got "${request.role ?? '(none)'}"`);
    }
    const blocks = lastUserBlocks(request.messages);
    const text = blocks.map((b) => (b.type === 'text' ? b.text : b.type === 'tool_result' ? b.content : '')).join('\n');
    for (const needle of expect.contains === undefined ? [] : [expect.contains].flat()) {
      if (!text.includes(needle)) throw this.diverged(turnNo, `expected the last message to contain "${needle}" but it was: ${clip(text)}`);
    }
    if (expect.toolResult !== undefined) {
      const ids = new Set(this.lastCalls.filter((c) => c.name === expect.toolResult).map((c) => c.id));
      const hit = blocks.find((b): b is ToolResultBlock => b.type === 'tool_result' && ids.has(b.toolUseId));
      if (!hit) throw this.diverged(turnNo, `expected a tool result for ${expect.toolResult} but none was sent`);
      if (expect.isError !== undefined && Boolean(hit.isError) !== expect.isError) {
        throw this.diverged(
          turnNo,
          `expected the ${expect.toolResult} result to be ${expect.isError ? 'an error' : 'a success'} but it was ${hit.isError ? 'an error' : 'a success'}: ${clip(hit.content)}`,
        );
      }
    }
  }

  private diverged(turn: number, mismatch: string): ScriptDivergedError {
    return new ScriptDivergedError(this.scenario.name, turn, mismatch);
  }
}

function lastUserBlocks(messages: ChatMessage[]): ContentBlock[] {
  const last = messages[messages.length - 1];
  if (last?.role !== 'user') return [];
  return typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : last.content;
}

function clip(s: string): string {
  return JSON.stringify(s.length > 160 ? s.slice(0, 160) + '…' : s);
}

function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ModelError('cancelled', 'The scripted run was stopped.');
}
