import { sleep } from '../llm/retry';
import { ModelError } from '../llm/errors';
import { ScriptedModel, type ScenarioInput } from '../llm/scripted-model';
import type { ChatMessage, Model, ModelCallRequest, ModelResult, ModelStreamEvent } from '../llm/types';

/** One model call as the scripted sub-agents saw it: which script answered, and when (ms). */
export interface ScriptedCall {
  key: string;
  role: string;
  start: number;
  end: number;
}

export interface ScriptedSubAgentsOptions {
  /** Latency of every call (ms), or per script key. Abortable, like a real request. */
  latencyMs?: number | ((key: string) => number);
  /** Errors thrown by a script's first calls, in order (e.g. a 529 overload to test retries). */
  failures?: Record<string, ModelError[]>;
}

function firstUserText(messages: ChatMessage[]): string {
  const m = messages.find((x) => x.role === 'user');
  if (!m) return '';
  return typeof m.content === 'string' ? m.content : m.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
}

/**
 * Scripted sub-agents for tests, the demo and benchmarks: each task's conversation is replayed by
 * its own ScriptedModel, picked by `<role>:<first word of the OBJECTIVE>` (e.g. `subagent:A`,
 * `validation:A`), falling back to the first word alone. Concurrent tasks therefore never share a
 * script, and a call no script expects fails loudly (ScriptDivergedError).
 */
export class ScriptedSubAgents implements Model {
  readonly id = 'scripted:subagents';
  readonly isScripted = true;
  readonly calls: ScriptedCall[] = [];
  private readonly models = new Map<string, ScriptedModel>();
  private readonly t0 = performance.now();

  constructor(
    private readonly scenarios: Record<string, ScenarioInput> | ((key: string) => ScenarioInput | undefined),
    private readonly options: ScriptedSubAgentsOptions = {},
  ) {}

  keyOf(request: ModelCallRequest): string {
    const word = /OBJECTIVE:\s*\n\s*(\S+)/.exec(firstUserText(request.messages))?.[1] ?? '';
    return `${request.role ?? 'agent'}:${word}`;
  }

  private modelFor(key: string): ScriptedModel {
    let m = this.models.get(key);
    if (m) return m;
    const lookup = (k: string) => (typeof this.scenarios === 'function' ? this.scenarios(k) : this.scenarios[k]);
    const scenario = lookup(key) ?? lookup(key.slice(key.indexOf(':') + 1));
    if (!scenario) throw new ModelError('bad_request', `No scripted conversation for "${key}".`);
    m = new ScriptedModel({ name: key, ...scenario });
    this.models.set(key, m);
    return m;
  }

  /** True when every script that was used has been replayed to its end. */
  get finished(): boolean {
    return [...this.models.values()].every((m) => m.finished);
  }

  call(request: ModelCallRequest): Promise<ModelResult> {
    return this.stream(request, () => {});
  }

  async stream(request: ModelCallRequest, onEvent: (event: ModelStreamEvent) => void): Promise<ModelResult> {
    const key = this.keyOf(request);
    const start = performance.now() - this.t0;
    const latency = typeof this.options.latencyMs === 'function' ? this.options.latencyMs(key) : (this.options.latencyMs ?? 0);
    try {
      if (latency > 0) await sleep(latency, request.signal);
    } catch {
      throw new ModelError('cancelled', 'The scripted call was stopped.');
    }
    const queued = this.options.failures?.[key];
    if (queued?.length) throw queued.shift()!;
    try {
      return await this.modelFor(key).stream(request, onEvent);
    } finally {
      this.calls.push({ key, role: request.role ?? 'agent', start, end: performance.now() - this.t0 });
    }
  }
}
