import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProcedureInput, ProcedureName, ProcedureOutput } from '../../api/procedures';
import { isAppError } from '../../common/errors';
import { createMcpService, type McpService } from '../../mcp';
import { tempCore } from '../testing';
import { contractsHandlers } from './contracts';
import type { Handler } from './types';

/**
 * The Contracts screen's core on real folders: Forge's contracts in a temp folder served by a real
 * MCP service (its real TtlCache and LocalSource), a project with Forge/Contracts/, real files.
 */

const PHYSICS = `paths:\n  /api/app/info:\n    method: POST\n    procedure: app/info\n    summary: What is running\n`;
const BOUNDARIES = `{\n  "modules": {\n    "api": { "path": "src-main/api", "mayImport": [] },\n    "common": { "path": "src-main/common", "mayImport": ["api"] }\n  }\n}\n`;

let temp: ReturnType<typeof tempCore>;
let forgeDir: string;
let projectDir: string;
let service: McpService;
let handlers: ReturnType<typeof contractsHandlers>;

beforeEach(() => {
  temp = tempCore();
  forgeDir = mkdtempSync(join(tmpdir(), 'forge-contracts-'));
  writeFileSync(join(forgeDir, 'physics.yaml'), PHYSICS);
  writeFileSync(join(forgeDir, 'boundaries.json'), BOUNDARIES);
  writeFileSync(join(forgeDir, 'manifesto.md'), '# Manifesto\n');
  writeFileSync(join(forgeDir, 'notes.txt'), 'not a contract');
  projectDir = mkdtempSync(join(tmpdir(), 'forge-project-'));
  mkdirSync(join(projectDir, 'Forge', 'Contracts'), { recursive: true });
  writeFileSync(join(projectDir, 'Forge', 'Contracts', 'stack.md'), '# Stack\n');
  service = createMcpService({ dataDir: temp.dataDir, mode: 'local', contractsDir: forgeDir, watch: false });
  handlers = contractsHandlers({ forge: () => ({ dir: forgeDir, cache: service.cache }) });
});

afterEach(async () => {
  service.close();
  await temp.dispose();
  rmSync(forgeDir, { recursive: true, force: true });
  rmSync(projectDir, { recursive: true, force: true });
});

async function call<N extends ProcedureName>(name: N, input: ProcedureInput<N>): Promise<ProcedureOutput<N>> {
  const handler = handlers[name] as Handler<N>;
  return handler(input as never, temp.core.context);
}

async function failure(run: () => unknown): Promise<{ code: string; message: string; issues?: unknown }> {
  try {
    await run();
  } catch (e) {
    if (isAppError(e)) return { code: e.code, message: e.message, issues: e.issues };
    throw e;
  }
  throw new Error('expected a typed error');
}

describe('contracts/list and read', () => {
  it("lists Forge's contracts (not other files) and a project's when its folder is given", async () => {
    const forge = await call('contracts/list', {});
    expect(forge.scope).toBe('forge');
    expect(forge.contracts.map((c) => [c.name, c.kind, c.versions])).toEqual([
      ['boundaries.json', 'json', 0],
      ['manifesto.md', 'md', 0],
      ['physics.yaml', 'yaml', 0],
    ]);
    expect(forge.contracts.find((c) => c.name === 'physics.yaml')?.brief).toMatch(/HTTP API/);
    const project = await call('contracts/list', { projectPath: projectDir });
    expect(project.scope).toBe('project');
    expect(project.contracts.map((c) => c.name)).toEqual(['stack.md']);
  });

  it('refuses names that leave the contracts folder or are not contracts, with a typed error', async () => {
    writeFileSync(join(projectDir, 'x.yaml'), 'secret: 1\n');
    expect((await failure(() => call('contracts/read', { name: '../x.yaml' }))).code).toBe('forbidden');
    expect((await failure(() => call('contracts/read', { name: join(projectDir, 'x.yaml') }))).code).toBe('forbidden');
    expect((await failure(() => call('contracts/read', { name: '.versions' }))).code).toBe('forbidden');
    expect((await failure(() => call('contracts/read', { name: 'notes.txt' }))).code).toBe('invalid_input');
    // A link inside the folder that points outside it is not a contract either.
    symlinkSync(join(projectDir, 'x.yaml'), join(forgeDir, 'outside.yaml'));
    expect((await failure(() => call('contracts/read', { name: 'outside.yaml' }))).code).toBe('forbidden');
    expect((await failure(() => call('contracts/read', { name: 'missing.md' }))).code).toBe('not_found');
  });
});

describe('contracts/validate', () => {
  it('reports a YAML error with its line, so the editor can underline it', async () => {
    const text = 'paths:\n  /api/app/info:\n    method: POST\n   summary: [unclosed\n';
    const r = await call('contracts/validate', { name: 'physics.yaml', text });
    expect(r.valid).toBe(false);
    expect(r.problems[0]?.path).toBe('(syntax)');
    expect(r.problems[0]?.message).toMatch(/^YAML syntax/);
    expect(r.problems[0]?.line).toBeGreaterThanOrEqual(4);
  });

  it('reports a JSON syntax error at its line and column', async () => {
    const text = '{\n  "modules": {\n    "api": { "path": "src-main/api" "mayImport": [] }\n  }\n}\n';
    const r = await call('contracts/validate', { name: 'boundaries.json', text });
    expect(r.valid).toBe(false);
    expect(r.problems).toHaveLength(1);
    expect([r.problems[0]?.line, r.problems[0]?.column]).toEqual([3, 37]); // the quote of "mayImport", where a comma is missing
  });

  it('lists boundaries.json schema problems with their path and line (a missing mayImport, an unknown module)', async () => {
    const text = '{\n  "modules": {\n    "api": { "path": "src-main/api" },\n    "common": { "path": "src-main/common", "mayImport": ["apii"] }\n  }\n}\n';
    const r = await call('contracts/validate', { name: 'boundaries.json', text });
    expect(r.valid).toBe(false);
    const byPath = Object.fromEntries(r.problems.map((p) => [p.path, p]));
    expect(byPath['modules.api.mayImport']?.line).toBe(3);
    // The reference check runs only once the shape is right; fix the first problem to see the second.
    const fixed = text.replace('"path": "src-main/api" }', '"path": "src-main/api", "mayImport": [] }');
    const again = await call('contracts/validate', { name: 'boundaries.json', text: fixed });
    expect(again.problems.map((p) => [p.path, p.line, p.message.includes('"apii" is not a module')])).toEqual([['modules.common.mayImport[0]', 4, true]]);
  });

  it('lists a physics.yaml entry without a method at the line of that entry', async () => {
    const text = 'paths:\n  /api/app/info:\n    procedure: app/info\n';
    const r = await call('contracts/validate', { name: 'physics.yaml', text });
    expect(r.problems.map((p) => [p.path, p.line])).toEqual([['paths./api/app/info.method', 3]]);
    expect((await call('contracts/validate', { name: 'physics.yaml', text: PHYSICS })).problems).toEqual([]);
  });
});

describe('contracts/save', () => {
  it('saves atomically, keeps the previous text as a readable version and audits the save', async () => {
    const before = await call('contracts/read', { name: 'physics.yaml' });
    expect(before.version).toBe(0);
    const text = PHYSICS.replace('What is running', 'The running app');
    const saved = await call('contracts/save', { name: 'physics.yaml', text, expectedVersion: before.version, expectedHash: before.hash });
    expect(saved).toMatchObject({ version: 2, changed: true });
    expect(readFileSync(join(forgeDir, 'physics.yaml'), 'utf8')).toBe(text);
    expect((await call('contracts/read', { name: 'physics.yaml', version: 1 })).text).toBe(PHYSICS);
    expect((await call('contracts/read', { name: 'physics.yaml' })).version).toBe(2);
    const versions = await call('contracts/versions', { name: 'physics.yaml' });
    expect(versions.versions.map((v) => [v.version, v.current])).toEqual([
      [2, true],
      [1, false],
    ]);
    const audit = temp.core.context.memory.store.audit.list({ path: '/contracts/forge/physics.yaml', limit: 5 });
    expect(audit.map((a) => [a.actor, a.operation, a.content_hash])).toEqual([['pm', 'update', saved.hash]]);
  });

  it('refuses an invalid text with invalid_input listing its problems, and leaves the file alone', async () => {
    const f = await failure(() => call('contracts/save', { name: 'physics.yaml', text: 'paths: [\n', expectedVersion: 0 }));
    expect(f.code).toBe('invalid_input');
    expect(f.message).toMatch(/line \d+:\d+/);
    expect((f.issues as unknown[]).length).toBeGreaterThan(0);
    expect(readFileSync(join(forgeDir, 'physics.yaml'), 'utf8')).toBe(PHYSICS);
  });

  it('answers conflict when the file changed elsewhere since it was opened, and keeps both texts', async () => {
    const opened = await call('contracts/read', { name: 'manifesto.md' });
    await call('contracts/save', { name: 'manifesto.md', text: '# Manifesto\nfirst\n', expectedVersion: opened.version });
    const stale = await failure(() => call('contracts/save', { name: 'manifesto.md', text: '# Manifesto\nsecond\n', expectedVersion: opened.version }));
    expect(stale.code).toBe('conflict');
    // An edit by hand after a save is caught too, and kept as a version when the PM saves over it.
    const fresh = await call('contracts/read', { name: 'manifesto.md' });
    writeFileSync(join(forgeDir, 'manifesto.md'), '# Manifesto\nby hand\n');
    const byHand = await failure(() =>
      call('contracts/save', { name: 'manifesto.md', text: '# x\n', expectedVersion: fresh.version, expectedHash: fresh.hash }),
    );
    expect(byHand.code).toBe('conflict');
    const now = await call('contracts/read', { name: 'manifesto.md' });
    const saved = await call('contracts/save', { name: 'manifesto.md', text: '# x\n', expectedVersion: now.version, expectedHash: now.hash });
    expect(saved.version).toBe(4);
    expect((await call('contracts/read', { name: 'manifesto.md', version: 3 })).text).toBe('# Manifesto\nby hand\n');
  });

  it('an attached IDE reads the saved text at once: the MCP cache is dropped on save', async () => {
    const cached = await service.source.loadContract('physics');
    expect((cached.content as { paths: Record<string, { summary: string }> }).paths['/api/app/info']?.summary).toBe('What is running');
    const text = PHYSICS.replace('What is running', 'Changed on the Contracts screen');
    const saved = await call('contracts/save', { name: 'physics.yaml', text, expectedVersion: 0 });
    expect(saved.cacheEntriesDropped).toBeGreaterThanOrEqual(1);
    const after = await service.source.loadContract('physics');
    expect((after.content as { paths: Record<string, { summary: string }> }).paths['/api/app/info']?.summary).toBe('Changed on the Contracts screen');
  });

  it("saves a project's contract in its Forge/Contracts/ folder", async () => {
    const saved = await call('contracts/save', { projectPath: projectDir, name: 'stack.md', text: '# Stack\nNode 22\n', expectedVersion: 0 });
    expect(saved.version).toBe(2);
    expect(readFileSync(join(projectDir, 'Forge', 'Contracts', 'stack.md'), 'utf8')).toBe('# Stack\nNode 22\n');
    expect(readFileSync(join(forgeDir, 'manifesto.md'), 'utf8')).toBe('# Manifesto\n');
  });
});
