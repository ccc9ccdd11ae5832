import type { z } from 'zod';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { mcpContractName, mcpProcedures } from '../api/mcp';
import { eventNames } from '../api/events';
import { procedureNames, procedures } from '../api/procedures';
import { migrations, openDatabase } from '../store';
import { builderSystemPrompt } from './builder-prompt';
import { CONTRACT_MAP, CONTRACT_NAMES, defaultContractsDir, forgePackageRoot } from './config';
import { LocalSource } from './local';
import { parsePhases, phaseWindow } from './phases';
import { documentedProcedures, fieldsOf, shapeOf, type PhysicsDoc } from './physics';

/**
 * Forge's own contracts (contracts/) describe this project; these tests fail when the code moves and
 * the contracts do not, so a builder or an IDE never reads a stale rule.
 */

const dir = defaultContractsDir();
const read = (file: string) => readFileSync(join(dir, file), 'utf8');

describe("Forge's own contracts", () => {
  it('has all 15 contracts, and each parses', async () => {
    const src = new LocalSource({ dir, watch: false });
    for (const name of CONTRACT_NAMES) {
      const c = await src.loadContract(name);
      if (CONTRACT_MAP[name].format === 'markdown') expect(String(c.content).length, name).toBeGreaterThan(400);
      else expect(typeof c.content, name).toBe('object');
    }
    src.close();
  });

  it('documents every API procedure in physics.yaml, and nothing that is not one (an IDE would call a procedure that does not exist)', () => {
    const doc = parseYaml(read('physics.yaml')) as PhysicsDoc;
    const documented = documentedProcedures(doc);
    // MCP procedures count even before they are merged into the main procedure map.
    const all = { ...procedures, ...mcpProcedures } as unknown as Record<string, { input: z.ZodType; output: z.ZodType }>;
    const real = new Set([...procedureNames, ...Object.keys(mcpProcedures)]);
    const missing = [...real].filter((n) => !documented.has(n));
    const extra = [...documented.keys()].filter((n) => !real.has(n));
    expect(missing, 'procedures missing from contracts/physics.yaml (print entries with: npx tsx src-main/mcp/physics-cli.ts <name>)').toEqual([]);
    expect(extra, 'physics.yaml documents procedures that do not exist').toEqual([]);
    for (const [name, entry] of documented) {
      expect(entry.method, name).toBe('POST');
      expect(entry.procedure, name).toBe(name);
      expect(String(entry.summary ?? '').length, `${name} needs a summary`).toBeGreaterThan(10);
      expect(fieldsOf(entry.input), `${name} input fields`).toEqual(fieldsOf(shapeOf(all[name].input, 'input')));
      expect(fieldsOf(entry.output), `${name} output fields`).toEqual(fieldsOf(shapeOf(all[name].output, 'output')));
    }
    expect(doc.paths['/events']?.method).toMatch(/WebSocket/);
    const events = Object.keys((doc as PhysicsDoc & { events?: Record<string, unknown> }).events ?? {}).sort();
    expect(events, 'events missing from or extra in physics.yaml').toEqual([...eventNames].sort());
  });

  it('describes in schema.md exactly the tables and columns a fresh workspace database has', () => {
    const md = read('schema.md');
    const tablesSection = md.split(/^## Tables$/m)[1]?.split(/^## /m)[0] ?? '';
    const documented = new Map<string, string[]>();
    for (const block of tablesSection.split(/^### /m).slice(1)) {
      const name = /^`([a-z_0-9]+)`/.exec(block)?.[1];
      if (!name) continue;
      const cols = [...block.matchAll(/^\| ([a-z_0-9]+) \|/gm)].map((m) => m[1]).filter((c) => c !== 'column');
      documented.set(name, cols.sort());
    }
    const db = openDatabase(':memory:');
    try {
      const rows = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string; sql: string }[];
      const virtual = rows.filter((r) => /^CREATE VIRTUAL/i.test(r.sql)).map((r) => r.name);
      // FTS5 shadow tables belong to their virtual table.
      const real = rows.filter((r) => !virtual.some((v) => r.name.startsWith(`${v}_`)));
      const actual = new Map(
        real.map((r) => {
          const cols = (db.prepare(`PRAGMA table_info("${r.name}")`).all() as { name: string }[]).map((c) => c.name).sort();
          return [r.name, cols] as const;
        }),
      );
      expect([...documented.keys()].sort()).toEqual([...actual.keys()].sort());
      for (const [name, cols] of actual) expect(documented.get(name), `columns of ${name}`).toEqual(cols);
      expect(md).toContain(`Schema version: ${db.pragma('user_version', { simple: true })}`);
      expect(migrations.length).toBe(db.pragma('user_version', { simple: true }));
    } finally {
      db.close();
    }
  });

  it("lays out Forge's roadmap as phases 0 to 10 that phase windows can read", () => {
    const phases = parsePhases(read('phases.md'));
    expect(phases.map((p) => `${p.number} ${p.name}`)).toEqual([
      '0 Foundation',
      '1 Memory',
      '2 Search',
      '3 Analyst',
      '4 Sub-agents and skills',
      '5 MCP server',
      '6 Builder',
      '7 Data providers',
      '8 Learning loop',
      '9 Full workbench UI',
      '10 Distribution',
    ]);
    for (const p of phases) expect(p.text, `phase ${p.number}`).toMatch(/Deliverables:[\s\S]+Exit criteria:/);
    expect(phaseWindow(read('phases.md'), 5).phases.map((p) => p.name)).toEqual(['MCP server', 'Builder']);
  });

  it('lists in stack.md every dependency with the version package.json pins', () => {
    const pkg = JSON.parse(readFileSync(join(forgePackageRoot(), 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    const deps = { ...pkg.dependencies, ...pkg.devDependencies };
    const rows = new Map([...read('stack.md').matchAll(/^\| `([^`]+)` \| ([^|]+?) \|/gm)].map((m) => [m[1], m[2].trim()]));
    expect([...rows.keys()].sort()).toEqual(Object.keys(deps).sort());
    for (const [name, version] of Object.entries(deps)) expect(rows.get(name), name).toBe(version);
  });

  it('keeps system_prompt.md identical to the prompt the MCP server serves', () => {
    expect(read('system_prompt.md')).toBe(builderSystemPrompt());
  });

  it('uses the same 15 contract names in the API as in the MCP registry', () => {
    expect([...mcpContractName.options]).toEqual(CONTRACT_NAMES);
  });

  it('keeps the mcp module inside the layers boundaries.json allows', () => {
    const rules = JSON.parse(read('boundaries.json')) as { modules: Record<string, { mayImport: string[] }> };
    expect(rules.modules.mcp.mayImport).not.toContain('host');
    expect(rules.modules.mcp.mayImport).not.toContain('agent');
    expect(rules.modules.mcp.mayImport).not.toContain('app');
  });
});
