import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countContextTokens } from '../llm/tokens';
import { ScriptedModel } from '../llm/scripted-model';
import { ArtifactStore, ProjectStore } from '../mcp';
import { type Db, openDatabase } from '../store';
import { type ToolDefinition, toModelTool } from '../tools/define';
import { fixedTokens, systemFor, toolsFor } from './build-context';
import { DEFAULT_BUILDER_SETTINGS } from './build-host';
import { BuildManager } from './runner';
import { BuildStore } from './store';
import { builderTokens, countBuilderContext } from './tokens';

/**
 * The builder's figures (the Builds screen's context meter, the compaction threshold, the bench)
 * are counted with the o200k BPE, not the characters heuristic: a heuristic that over-counts JSON
 * by 2× would show a tool-heavy build twice as full as it is and compact it far too early.
 */

describe('builder token counting', () => {
  it('counts with the o200k BPE: known counts, and JSON not double-charged as the heuristic does', () => {
    // o200k_base: "hello world" is 2 tokens, "internationalization" 2; the heuristic says 4 for the latter.
    expect(builderTokens('hello world')).toBe(2);
    expect(builderTokens('internationalization')).toBe(2);
    expect(builderTokens('')).toBe(0);
    const schema = JSON.stringify({ type: 'object', properties: { path: { type: 'string' } } });
    expect(builderTokens(schema)).toBe(14);
    // A long text is memoised; the second count must be the same figure, not a cache artefact.
    const long = 'Deliverables: the module, its tests and the screen that shows it. '.repeat(40);
    expect(builderTokens(long)).toBe(builderTokens(long));
    expect(builderTokens(long)).toBeLessThan(long.length / 3.5);
  });

  it('splits a request by part, and the parts add up to the total the meter shows', () => {
    const c = countBuilderContext({
      system: [{ text: 'You are the builder.', stable: true }],
      tools: [{ name: 'read_file', description: 'Read a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }],
      messages: [
        { role: 'user', content: 'Begin.' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read_file', input: { path: 'a.ts' } }] },
        { role: 'user', content: [{ type: 'tool_result', toolUseId: 't1', content: 'export const a = 1;' }] },
      ],
    });
    expect(c.system).toBe(builderTokens('You are the builder.'));
    expect(c.tools).toBeGreaterThan(builderTokens('read_file') + builderTokens('Read a file.'));
    expect(c.conversation).toBeGreaterThan(builderTokens('Begin.') + builderTokens('export const a = 1;'));
    expect(c.total).toBe(c.system + c.tools + c.conversation);
  });

  it("the builder's fixed context (system prompt + tool definitions) is the BPE count, not the heuristic's", () => {
    const system = systemFor('Calculator', 'mcp');
    const tools = toolsFor('mcp').map((t) => toModelTool(t as ToolDefinition));
    const bpe = countBuilderContext({ system, tools, messages: [] });
    const heuristic = countContextTokens({ system, tools, messages: [] });
    expect(fixedTokens(system, toolsFor('mcp'))).toBe(bpe.system + bpe.tools);
    // The two disagree by far more than rounding on 13 JSON schemas, so the assertion above can fail.
    expect(Math.abs(heuristic.system + heuristic.tools - (bpe.system + bpe.tools))).toBeGreaterThan(100);
  });
});

describe("a build's context meter", () => {
  let dir: string;
  let db: Db;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'forge-build-tokens-'));
    db = openDatabase(join(dir, 'forge.db'));
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores fixed and conversation tokens counted with the BPE after a turn', async () => {
    const work = join(dir, 'calc');
    mkdirSync(join(work, 'Forge', 'Contracts'), { recursive: true });
    writeFileSync(join(work, 'Forge', 'Contracts', 'blueprint.md'), '# Calculator\n\nA tiny arithmetic library with tests.\n');
    writeFileSync(
      join(work, 'Forge', 'Contracts', 'phases.md'),
      '# Phases\n\n## Phase 0 — Addition\n\nDeliverables: add.js.\n\n## Phase 1 — Subtraction\n\nDeliverables: sub.js.\n',
    );
    writeFileSync(join(work, 'Forge', 'Contracts', 'stack.md'), '# Stack\n\nNode 20, node:test.\n');
    writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'calc', version: '1.0.0', scripts: { test: 'node --test' } }));
    const model = new ScriptedModel({ name: 'one-turn', turns: [{ reply: { text: '=== STOP: EVIDENCE_MISSING ===\nNo tests folder yet.' } }] });
    const store = new BuildStore(db);
    const m = new BuildManager({
      store,
      projects: async () => new ProjectStore(db),
      artifacts: new ArtifactStore(undefined),
      model: () => model,
      helperModel: () => undefined,
      defaultModelId: () => model.id,
      settings: () => ({ ...DEFAULT_BUILDER_SETTINGS, allowedCommands: ['node'] }),
    });
    const { id } = await m.start({ workDir: work, mode: 'mcp' });
    for (let i = 0; i < 600 && m.detail(id).build.status === 'running'; i++) {
      await m.settled(id);
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(m.detail(id).build.status).toBe('waiting_answer');
    const detail = m.detail(id);
    const system = systemFor(detail.build.projectName, 'mcp');
    const tools = toolsFor('mcp').map((t) => toModelTool(t as ToolDefinition));
    const expected = countBuilderContext({ system, tools, messages: store.messages(id) });
    expect(detail.context.fixedTokens).toBe(expected.system + expected.tools);
    expect(detail.context.conversationTokens).toBe(expected.conversation);
  }, 60_000);
});
