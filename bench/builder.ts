/**
 * Builder benchmark, on Forge's own contracts/:
 *  - the fixed context a builder carries on every turn — system prompt + tool definitions + the
 *    first message — in MCP mode (lean prompt, contracts fetched on demand) and in dump mode (every
 *    contract in the first message, the old flow), counted with the same estimator the context
 *    meter uses; ratio = dump / MCP;
 *  - phase-window extraction (forge_get_phase_window's parse) on a 230 KB phases file, p50 over runs.
 * Usage: npm run bench -- builder [runs=200]
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstMessage, fixedTokens, projectBrief, readContracts, systemFor, toolsFor } from '../src-main/builder';
import { workspaceListing } from '../src-main/builder/workspace';
import { countTokens } from '../src-main/llm/tokens';
import { parsePhases, phaseWindow } from '../src-main/mcp';
import { percentile, report, round, timeRuns } from './_stats';

const RUNS = Number(process.argv[2] ?? 200);
const root = join(import.meta.dirname, '..');

// A project folder holding Forge's own contracts, as a user's project would.
const dir = mkdtempSync(join(tmpdir(), 'forge-bench-builder-'));
try {
  mkdirSync(join(dir, 'Forge'), { recursive: true });
  cpSync(join(root, 'contracts'), join(dir, 'Forge', 'Contracts'), { recursive: true });
  writeFileSync(join(dir, 'README.md'), '# Project\n');
  const contracts = readContracts(join(dir, 'Forge', 'Contracts'));
  const brief = projectBrief(contracts.find((c) => c.name === 'blueprint')?.text ?? '');
  const listing = await workspaceListing(dir);

  const fixedFor = (mode: 'mcp' | 'dump') => {
    const system = systemFor(brief.name, mode);
    const first = firstMessage({
      projectName: brief.name,
      description: brief.description,
      listing,
      mode,
      ...(mode === 'dump' ? { contractsDump: contracts.map((c) => ({ name: c.name, text: c.text })) } : {}),
    });
    const prompt = fixedTokens(system, toolsFor(mode));
    return { prompt, first: countTokens(first), total: prompt + countTokens(first) };
  };
  const mcp = fixedFor('mcp');
  const dump = fixedFor('dump');
  console.log(`MCP mode:  system + ${toolsFor('mcp').length} tools ${mcp.prompt} tokens, first message ${mcp.first} → ${mcp.total} per turn`);
  console.log(`dump mode: system + ${toolsFor('dump').length} tools ${dump.prompt} tokens, first message ${dump.first} → ${dump.total} per turn`);

  // A 230 KB roadmap: Forge's phases repeated into 120 numbered phases.
  const phase = (n: number) =>
    `## Phase ${n} — Capability ${n}\n\n${'Deliverables: the module, its tests, its API procedure and the screen that shows it. '.repeat(18)}\n\n- item a\n- item b\n\n\`\`\`\n## Phase 999 — inside a fence, not a phase\n\`\`\`\n`;
  let text = '# Phases\n\n';
  for (let n = 0; text.length < 230 * 1024; n++) text += phase(n);
  const phases = parsePhases(text).length;
  const samples = await timeRuns(RUNS, (i) => phaseWindow(text, (i * 7) % (phases - 1)));
  const p50 = percentile(samples, 50);
  console.log(
    `phase window on ${(text.length / 1024).toFixed(0)} KB (${phases} phases): p50 ${round(p50, 3)} ms, p95 ${round(percentile(samples, 95), 3)} ms over ${RUNS} runs`,
  );
  report({
    bench: 'builder',
    mcp_fixed_tokens: mcp.total,
    dump_fixed_tokens: dump.total,
    ratio: round(dump.total / mcp.total, 2),
    phase_window_p50_ms: round(p50, 3),
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
