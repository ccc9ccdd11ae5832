/**
 * Builder benchmark (issue #28 §4), every figure counted with the o200k BPE the builder's context
 * meter uses (src-main/builder/tokens.ts), for one small example package per format in
 * resources/examples/specs/<format>/ and for a large plain package generated here:
 *  - the fixed context in MCP mode — system prompt + tool definitions + the first message, each
 *    listed — and the same in dump mode (every document of the package and the first window in the
 *    first message);
 *  - the first phase window (forge_get_phase_window on the plan's first phase, preamble included);
 *  - the fixed context plus the documents the prompt tells the model to read every phase;
 *  - ratio = dump ÷ MCP fixed, on the largest example whose dump exceeds 25,000 tokens (else on a
 *    package generated here; its ratio is reported too, as generated_ratio).
 * With ANTHROPIC_API_KEY set it also asks the Messages API's count_tokens for each MCP fixed context.
 * Usage: npm run bench -- builder
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstMessage, projectBrief, systemFor, toolsFor, workspaceListing } from '../src-main/builder';
import { packageLead } from '../src-main/builder/prepare';
import { countBuilderContext } from '../src-main/builder/tokens';
import type { ChatMessage } from '../src-main/llm/types';
import { packageWindow } from '../src-main/mcp/spec-package';
import { readSpecPackage, type SpecDocument, type SpecPackage } from '../src-main/specs';
import { type ToolDefinition, toModelTool } from '../src-main/tools/define';
import { writeLargePlainPackage } from './_builder-package';
import { report } from './_stats';

const root = join(import.meta.dirname, '..');
const examples = join(root, 'resources', 'examples', 'specs');

type Mode = 'mcp' | 'dump';

/**
 * The documents the prompt tells the builder to read in every phase — builder-prompt.ts: "the design
 * and stack always" — as each format names them: Forge's blueprint and stack, spec-kit's plan (its
 * technical design) and constitution, Kiro's design and steering, OpenSpec's design and project.md,
 * and in a plain folder any document titled design, architecture or stack.
 */
const EVERY_PHASE_KINDS = new Set(['blueprint', 'stack', 'design', 'steering', 'constitution', 'project']);
function everyPhaseDocs(pkg: SpecPackage): SpecDocument[] {
  return pkg.documents.filter(
    (d) =>
      EVERY_PHASE_KINDS.has(d.kind) ||
      (pkg.format === 'spec-kit' && d.kind === 'plan') ||
      (pkg.format === 'plain' && /design|architecture|stack/i.test(`${d.id} ${d.title}`)),
  );
}

interface Measured {
  /** The example's folder name (two examples may share a format). */
  label: string;
  format: string;
  documents: number;
  phases: number;
  firstPhase: string;
  firstPhaseTasks: number;
  mcp: { system: number; tools: number; first: number; total: number; toolCount: number };
  dump: { system: number; tools: number; first: number; total: number; toolCount: number };
  window: number;
  everyPhase: { docs: string[]; tokens: number };
  request: { system: ReturnType<typeof systemFor>; tools: ReturnType<typeof toModelTool>[]; first: string };
}

async function measure(label: string, pkg: SpecPackage): Promise<Measured> {
  // The name and description the runner puts in the first message, from the same lead document.
  const { name, description } = projectBrief(packageLead(pkg));
  const listing = await workspaceListing(pkg.root);
  const first = pkg.phases[0];
  if (!first) throw new Error(`${pkg.root}: the ${pkg.format} example has no phases (${pkg.notUnderstood.join(' ')})`);
  const window = packageWindow(pkg, first.id).content;
  const fixed = (mode: Mode) => {
    const system = systemFor(name, mode);
    const tools = toolsFor(mode).map((t) => toModelTool(t as unknown as ToolDefinition));
    // The first message starts the plan's own first phase (never an assumed Phase 0).
    const input = {
      projectName: name,
      description,
      listing,
      mode,
      firstPhase: { id: first.id, name: first.name },
      ...(mode === 'dump' ? { contractsDump: pkg.documents.map((d) => ({ name: d.id, text: d.text })), phaseWindow: window } : {}),
    };
    const text = firstMessage(input);
    const message: ChatMessage = { role: 'user', content: [{ type: 'text', text }] };
    const c = countBuilderContext({ system, tools, messages: [message] });
    return { counts: { system: c.system, tools: c.tools, first: c.conversation, total: c.total, toolCount: tools.length }, system, tools, text };
  };
  const mcp = fixed('mcp');
  const dump = fixed('dump');
  const must = everyPhaseDocs(pkg);
  const windowTokens = countBuilderContext({ system: '', messages: [{ role: 'user', content: window }] }).conversation;
  const mustTokens = must.reduce((n, d) => n + countBuilderContext({ system: '', messages: [{ role: 'user', content: d.text }] }).conversation, 0);
  return {
    label,
    format: pkg.format,
    documents: pkg.documents.length,
    phases: pkg.phases.length,
    firstPhase: first.id,
    firstPhaseTasks: first.tasks.length,
    mcp: mcp.counts,
    dump: dump.counts,
    window: windowTokens,
    everyPhase: { docs: must.map((d) => d.id), tokens: mcp.counts.total + windowTokens + mustTokens },
    request: { system: mcp.system, tools: mcp.tools, first: mcp.text },
  };
}

function print(m: Measured): void {
  console.log(`${m.label}: ${m.format}, ${m.documents} documents, ${m.phases} phases (first "${m.firstPhase}", ${m.firstPhaseTasks} tasks)`);
  for (const mode of ['mcp', 'dump'] as const) {
    const c = m[mode];
    console.log(`  ${mode.padEnd(4)} fixed: system ${c.system} + ${c.toolCount} tools ${c.tools} + first message ${c.first} = ${c.total}`);
  }
  console.log(`  first window ${m.window}; fixed + window + every-phase documents (${m.everyPhase.docs.join(', ') || 'none'}) ${m.everyPhase.tokens}`);
  console.log(`  dump ÷ fixed ${(m.dump.total / m.mcp.total).toFixed(2)}×`);
}

/**
 * The Messages API's own count (count_tokens is free), when a key is at hand — the BPE figures above
 * need none. ANTHROPIC_BASE_URL points it at another endpoint (the tests use the mock Messages API).
 */
async function apiCount(m: Measured): Promise<number | string> {
  const key = process.env.ANTHROPIC_API_KEY;
  if (!key) return 'no key';
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  const sdk = new Anthropic({ apiKey: key, ...(process.env.ANTHROPIC_BASE_URL ? { baseURL: process.env.ANTHROPIC_BASE_URL } : {}), maxRetries: 1 });
  try {
    const r = await sdk.messages.countTokens({
      model: process.env.FORGE_BENCH_MODEL ?? 'claude-sonnet-4-5',
      system: m.request.system.map((b) => b.text).join('\n\n'),
      tools: m.request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema as { type: 'object' } })),
      messages: [{ role: 'user', content: m.request.first }],
    });
    return r.input_tokens;
  } catch (e) {
    return `count_tokens failed: ${(e as Error).message.slice(0, 120)}`;
  }
}

const folders = readdirSync(examples).filter((f) => !f.startsWith('.') && statSync(join(examples, f)).isDirectory());
const small: Measured[] = [];
const apiCounts: number[] = [];
for (const f of folders.sort()) {
  const m = await measure(f, readSpecPackage(join(examples, f)));
  print(m);
  if (process.env.ANTHROPIC_API_KEY) {
    const n = await apiCount(m);
    console.log(`  count_tokens (Messages API) for the MCP fixed context: ${n}`);
    if (typeof n === 'number') apiCounts.push(n);
  }
  small.push(m);
}

// The ratio is taken on a package whose dump exceeds 25,000 tokens: the largest example that does
// (written text), and a generated one besides, so the figure never rests on a too-small package.
const dir = mkdtempSync(join(tmpdir(), 'forge-bench-builder-'));
try {
  writeLargePlainPackage(dir);
  const generated = await measure('generated large plain package', readSpecPackage(dir));
  print(generated);
  if (generated.dump.total <= 25_000) throw new Error(`the generated package's dump is ${generated.dump.total} tokens; it must exceed 25,000`);
  const large = [...small].sort((a, b) => b.dump.total - a.dump.total).find((m) => m.dump.total > 25_000) ?? generated;
  console.log(`ratio taken on: ${large.label} (dump ${large.dump.total} ÷ MCP fixed ${large.mcp.total})`);
  const windows = [...small, generated].filter((m) => m.firstPhaseTasks <= 10);
  const perExample = Object.fromEntries(small.map((m) => [`${m.label}_mcp_fixed_tokens`, m.mcp.total]));
  report({
    bench: 'builder',
    tokenizer: 'o200k_base',
    mcp_fixed_tokens: Math.max(...small.map((m) => m.mcp.total), generated.mcp.total),
    ...perExample,
    window_tokens: Math.max(...windows.map((m) => m.window)),
    every_phase_tokens: Math.max(...small.map((m) => m.everyPhase.tokens)),
    large_package: large.label,
    large_dump_tokens: large.dump.total,
    large_mcp_fixed_tokens: large.mcp.total,
    ratio: Number((large.dump.total / large.mcp.total).toFixed(2)),
    generated_ratio: Number((generated.dump.total / generated.mcp.total).toFixed(2)),
    ...(apiCounts.length ? { api_mcp_fixed_tokens: Math.max(...apiCounts) } : {}),
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
