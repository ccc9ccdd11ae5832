import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgePackageRoot } from '../config';
import { startMcpHttpServer, type McpHttpServer } from '../http';
import { createMcpService, type McpService } from '../service';
import { fixture, jsonOf, textOf, type Fixture } from './fixtures';
import { KIRO, snapshot, SPEC_KIT, writePackage } from './packages';

/**
 * An IDE (Claude Code, Cursor, VS Code) attached over the real Streamable HTTP transport works on
 * the repository it has open: the project tools answer from that folder, in its own spec format,
 * whether the folder comes from the client's MCP roots or is named by path.
 */

let f: Fixture;
let service: McpService;
let http: McpHttpServer;
let specKit: ReturnType<typeof writePackage>;
let kiro: ReturnType<typeof writePackage>;
const open: Client[] = [];

beforeAll(async () => {
  f = fixture();
  specKit = writePackage(SPEC_KIT, 'photo-albums');
  kiro = writePackage(KIRO, 'order-export');
  service = createMcpService({ dataDir: f.dataDir, contractsDir: f.contractsDir, workDir: f.workDir, mode: 'local', env: {} });
  http = await startMcpHttpServer({ service });
});
afterAll(async () => {
  for (const c of open) await c.close().catch(() => undefined);
  await http.close();
  service.close();
  f.dispose();
  specKit.dispose();
  kiro.dispose();
});

/** A real SDK client; with `roots` it declares the roots capability and answers roots/list from the array. */
async function ide(roots?: { uri: string; name?: string }[]): Promise<Client> {
  const client = new Client({ name: 'ide-test', version: '1.0.0' }, roots ? { capabilities: { roots: { listChanged: true } } } : {});
  if (roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [...roots] }));
  const transport = new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { authorization: `Bearer ${service.token.get()}` } } });
  await client.connect(transport);
  open.push(client);
  return client;
}

const call = (c: Client, name: string, args: Record<string, unknown> = {}) => c.callTool({ name, arguments: args });
const clientsNamed = (project: string) => [...service.connections.values()].map((c) => c.project?.()).filter((p) => p?.project?.id === project);

describe('project tools over the folder an IDE has open', () => {
  it('answers from the spec-kit folder a client declares as its root, and never writes there', async () => {
    // Failing, a developer in Cursor would get "No project given" (or Forge's own contracts) instead of their specs.
    const before = snapshot(specKit.dir);
    const c = await ide([{ uri: pathToFileURL(specKit.dir).href, name: 'photo-albums' }]);

    const ctx = jsonOf<{ project_id: string; format: string; folder: string; documents: { id: string }[]; phases: { id: string; tasks: number }[] }>(
      await call(c, 'forge_get_project_context'),
    );
    expect(ctx.format).toBe('spec-kit');
    expect(ctx.folder).toBe(specKit.dir);
    expect(ctx.documents.map((d) => d.id)).toEqual(
      expect.arrayContaining(['.specify/memory/constitution.md', 'specs/001-photo-albums/spec.md', 'specs/001-photo-albums/tasks.md']),
    );
    expect(ctx.phases.map((p) => [p.id, p.tasks])).toEqual([
      ['3.1', 2],
      ['3.2', 2],
      ['3.3', 1],
    ]);

    const list = jsonOf<{ contracts: { document: string; brief: string; tokens: number }[] }>(await call(c, 'forge_list_project_contracts'));
    const spec = list.contracts.find((d) => d.document === 'specs/001-photo-albums/spec.md');
    expect(spec?.brief).toMatch(/group their photos into albums/);
    expect(spec?.tokens).toBeGreaterThan(5);

    const doc = jsonOf<{ content: string }>(await call(c, 'forge_get_project_contract', { document: 'specs/001-photo-albums/plan.md' }));
    expect(doc.content).toContain('Vite with vanilla HTML');
    // A document can also be named by its kind when the package has one of that kind.
    expect(jsonOf<{ document: string }>(await call(c, 'forge_get_project_contract', { document: 'tasks' })).document).toBe('specs/001-photo-albums/tasks.md');
    const outside = await call(c, 'forge_get_project_contract', { document: '../../etc/passwd' });
    expect(outside.isError).toBe(true);
    expect(textOf(outside)).toMatch(/has no document "\.\.\/\.\.\/etc\/passwd"\. Its documents: /);

    const w = jsonOf<{ phase: string; phases: { id: string }[]; content: string }>(await call(c, 'forge_get_phase_window', { phase_number: '3.2' }));
    expect(w.phases.map((p) => p.id)).toEqual(['3.2', '3.3']);
    expect(w.content).toContain('T003');
    expect(w.content).not.toContain('T001');

    // The MCP screen's status names the project this client is on.
    expect(clientsNamed(ctx.project_id)).toEqual([
      {
        project: { id: ctx.project_id, name: 'photo-albums', folder: specKit.dir, via: 'roots', format: 'spec-kit' },
        roots: [pathToFileURL(specKit.dir).href],
        rootsError: null,
      },
    ]);
    // …and its call log says which project each call was about.
    expect(new Set(service.calls.list(5).map((r) => r.project))).toEqual(new Set([ctx.project_id]));
    expect(snapshot(specKit.dir)).toBe(before);
  }, 60_000);

  it('follows the client to a Kiro folder when its roots change', async () => {
    // Failing, an IDE that opens another repository would keep being served the first one's plan.
    const roots = [{ uri: pathToFileURL(specKit.dir).href }];
    const c = await ide(roots);
    expect(jsonOf<{ format: string }>(await call(c, 'forge_get_project_context')).format).toBe('spec-kit');

    roots.splice(0, 1, { uri: pathToFileURL(kiro.dir).href });
    await c.sendRootsListChanged();
    const ctx = jsonOf<{ format: string; folder: string; phases: { id: string }[] }>(await call(c, 'forge_get_project_context'));
    expect(ctx.format).toBe('kiro');
    expect(ctx.folder).toBe(kiro.dir);
    expect(ctx.phases.map((p) => p.id)).toEqual(['1', '2', '3']);

    const w = jsonOf<{ phases: { id: string }[]; content: string }>(await call(c, 'forge_get_phase_window', { phase_number: 2 }));
    expect(w.phases.map((p) => p.id)).toEqual(['2', '3']);
    expect(w.content).toContain('Stream rows with a header line');
    const missing = await call(c, 'forge_get_phase_window', { phase_number: 7 });
    expect(textOf(missing)).toMatch(/no phase 7 .*Its phases: 1, 2, 3/);
  }, 60_000);

  it('lets a client without roots name its folder by path', async () => {
    // Failing, a client that declares no roots (older IDEs, scripts) could never reach its own specs.
    const c = await ide();
    const none = await call(c, 'forge_get_project_context');
    expect(none.isError).toBe(true);
    expect(textOf(none)).toMatch(/No project given: .*forge_set_session\(project_id or project_dir\)/);

    const relative = await call(c, 'forge_set_session', { project_dir: 'order-export' });
    expect(textOf(relative)).toMatch(/is not an absolute path/);

    const set = jsonOf<{ session: { project_id: string }; project: { format: string } }>(await call(c, 'forge_set_session', { project_dir: kiro.dir }));
    expect(set.project.format).toBe('kiro');
    const list = jsonOf<{ contracts: { document: string }[] }>(await call(c, 'forge_list_project_contracts'));
    expect(list.contracts.map((d) => d.document)).toContain('.kiro/specs/order-export/requirements.md');
    expect(clientsNamed(set.session.project_id).map((p) => p?.project?.via)).toContain('path');
  }, 60_000);

  it('says in a sentence why a root that does not exist here was not used', async () => {
    // Failing, the developer would see an empty project or a stack trace instead of what to fix.
    // (The SDK itself refuses a roots answer with a non-file:// URI, so the client cannot send one.)
    const gone = `${specKit.dir}-gone`;
    const aFile = `${specKit.dir}/specs/001-photo-albums/spec.md`;
    const c = await ide([{ uri: pathToFileURL(aFile).href }, { uri: pathToFileURL(gone).href }]);
    const r = await call(c, 'forge_get_project_context');
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain(`is a file, not a folder (${aFile})`);
    expect(textOf(r)).toContain(`does not exist on this machine (${gone})`);

    const status = [...service.connections.values()].map((x) => x.project?.()).find((p) => p?.roots.includes(pathToFileURL(gone).href));
    expect(status?.project).toBeNull();
    expect(status?.rootsError).toContain('does not exist on this machine');
  }, 60_000);

  it('never hides a Forge project behind a folder of the same name', async () => {
    // Failing, opening a folder called "ledger" in an IDE would make the PM's Forge project "ledger" unreachable by its id.
    (await service.projectStore()).createProject({ id: 'ledger', name: 'Ledger', description: 'kept in Forge' });
    const ledger = writePackage(SPEC_KIT, 'ledger');
    try {
      const c = await ide([{ uri: pathToFileURL(ledger.dir).href }]);
      const folder = jsonOf<{ project_id: string; format: string }>(await call(c, 'forge_get_project_context'));
      expect(folder.format).toBe('spec-kit');
      expect(folder.project_id).toMatch(/^ledger-[0-9a-f]{8}$/);
      const forge = jsonOf<{ project_id: string; description: string }>(await call(c, 'forge_get_project_context', { project_id: 'ledger' }));
      expect(forge).toMatchObject({ project_id: 'ledger', description: 'kept in Forge' });
    } finally {
      ledger.dispose();
    }
  }, 60_000);

  it('reads the spec-kit feature the developer picks, and refuses one the folder does not hold', async () => {
    // Failing, a developer working on an older spec-kit feature would only ever be served the newest one.
    const copy = mkdtempSync(join(tmpdir(), 'forge-feature-'));
    const dir = join(copy, 'links');
    cpSync(join(forgePackageRoot(), 'resources', 'examples', 'specs', 'spec-kit'), dir, { recursive: true });
    try {
      const c = await ide([{ uri: pathToFileURL(dir).href }]);
      const newest = jsonOf<{ feature: string; features: string[] }>(await call(c, 'forge_get_project_context'));
      expect(newest).toMatchObject({ feature: '002-link-shortener', features: ['001-team-accounts', '002-link-shortener'] });

      const picked = jsonOf<{ project: { feature: string; documents: { id: string }[] } }>(await call(c, 'forge_set_session', { feature: '001' }));
      expect(picked.project.feature).toBe('001-team-accounts');
      const list = jsonOf<{ contracts: { document: string }[] }>(await call(c, 'forge_list_project_contracts'));
      expect(list.contracts.map((d) => d.document)).toContain('specs/001-team-accounts/spec.md');
      expect(list.contracts.map((d) => d.document)).not.toContain('specs/002-link-shortener/tasks.md');

      const wrong = await call(c, 'forge_set_session', { feature: '009' });
      expect(wrong.isError).toBe(true);
      expect(textOf(wrong)).toMatch(/There is no "009" in specs\/; it holds 001-team-accounts, 002-link-shortener/);
      expect(jsonOf<{ feature: string }>(await call(c, 'forge_get_project_context')).feature).toBe('001-team-accounts');
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }, 60_000);
});
