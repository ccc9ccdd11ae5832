import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSpecPackage } from '../../specs';
import { forgePackageRoot } from '../config';
import { FolderProjects, type SpecReader } from '../folders';
import { startMcpHttpServer } from '../http';
import { createMcpService } from '../service';
import { fixture, jsonOf, type Fixture } from './fixtures';

/**
 * An IDE calls the project tools many times a minute; the folder's spec package is read (parsed and
 * token-counted) again only when something it was read from changed. Reads are counted through the
 * reader the service takes, around the real spec reader, on temp copies of the example packages.
 */

const examples = join(forgePackageRoot(), 'resources', 'examples', 'specs');
let tmp: string;

beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'forge-roots-cache-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

/** A temp copy of an example package, every file and folder dated an hour back: a folder nobody is editing. */
function copyOf(example: string, name: string): string {
  const dir = join(tmp, name);
  cpSync(join(examples, example), dir, { recursive: true });
  const hourAgo = new Date(Date.now() - 3_600_000);
  const age = (p: string) => {
    for (const e of readdirSync(p, { withFileTypes: true })) if (e.isDirectory()) age(join(p, e.name));
    utimesSync(p, hourAgo, hourAgo);
    for (const e of readdirSync(p, { withFileTypes: true })) if (e.isFile()) utimesSync(join(p, e.name), hourAgo, hourAgo);
  };
  age(dir);
  return dir;
}

function counting(): { read: SpecReader; reads: () => number } {
  let reads = 0;
  return {
    read: (dir, opts) => {
      reads += 1;
      return readSpecPackage(dir, opts);
    },
    reads: () => reads,
  };
}

describe('the project folder, read once while unchanged', () => {
  it('serves an IDE attached over HTTP from one reading, and sees an edited spec on the next call', async () => {
    // Failing, every tool call would re-parse the whole package (slow on a large repository), or an edit would go unseen.
    const dir = copyOf('kiro', 'password-reset');
    const f: Fixture = fixture();
    const { read, reads } = counting();
    const service = createMcpService({ dataDir: f.dataDir, contractsDir: f.contractsDir, workDir: f.workDir, mode: 'local', env: {}, readSpec: read });
    const http = await startMcpHttpServer({ service });
    const client = new Client({ name: 'ide-cache', version: '1.0.0' }, { capabilities: { roots: { listChanged: true } } });
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: pathToFileURL(dir).href }] }));
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { authorization: `Bearer ${service.token.get()}` } } }),
      );
      const call = async <T>(name: string, args: Record<string, unknown> = {}) => jsonOf<T>(await client.callTool({ name, arguments: args }));

      const ctx = await call<{ format: string; phases: { id: string }[] }>('forge_get_project_context');
      expect(ctx.format).toBe('kiro');
      expect(ctx.phases.map((p) => p.id)).toEqual(['1', '2', '3']);
      await call('forge_list_project_contracts');
      await call('forge_get_project_contract', { document: '.kiro/specs/password-reset/design.md' });
      await call('forge_get_phase_window', { phase_number: 2 });
      expect(reads()).toBe(1);

      // The developer adds a phase to tasks.md in the IDE.
      appendFileSync(join(dir, '.kiro/specs/password-reset/tasks.md'), '\n- [ ] 4. Document the reset flow\n  - _Requirements: 1.1_\n');
      const edited = await call<{ phases: { id: string }[] }>('forge_get_project_context');
      expect(edited.phases.map((p) => p.id)).toEqual(['1', '2', '3', '4']);
      expect((await call<{ content: string }>('forge_get_phase_window', { phase_number: 4 })).content).toContain('Document the reset flow');
      expect(reads()).toBeGreaterThanOrEqual(2);
    } finally {
      await client.close().catch(() => undefined);
      await http.close();
      service.close();
      f.dispose();
    }
  }, 90_000);

  it('reads again when a document is saved by rename, or a document or a feature is added; never for an untouched folder', async () => {
    // Failing, a save from an editor that writes a temp file and renames it, or a new spec file, would be served stale.
    const dir = copyOf('kiro', 'password-reset');
    const { read, reads } = counting();
    const folders = new FolderProjects(read);
    const project = await folders.register(dir);
    const h = { project, via: 'roots' as const };
    const ids = async () => ((await folders.contracts(h)).contracts as { document: string }[]).map((d) => d.document);

    await folders.context(h);
    await folders.phaseWindow(h, '1');
    expect(reads()).toBe(1);

    // Same size, new content, written beside and renamed over: the size alone would not tell.
    const design = join(dir, '.kiro/specs/password-reset/design.md');
    const text = readFileSync(design, 'utf8');
    writeFileSync(
      `${design}.tmp`,
      text.replace(/^# .*/m, (t) => `# ${'X'.repeat(t.length - 2)}`),
    );
    renameSync(`${design}.tmp`, design);
    expect((await folders.document(h, '.kiro/specs/password-reset/design.md')).title).toMatch(/^X+$/);
    expect(reads()).toBe(2);

    writeFileSync(join(dir, '.kiro/steering/structure.md'), '# Structure\n\nOne Django app per bounded context.\n');
    expect(await ids()).toContain('.kiro/steering/structure.md');

    mkdirSync(join(dir, '.kiro/specs/two-factor'));
    writeFileSync(join(dir, '.kiro/specs/two-factor/requirements.md'), '# Requirements Document\n\nUsers add a second factor.\n');
    writeFileSync(join(dir, '.kiro/specs/two-factor/tasks.md'), '# Implementation Plan\n\n- [ ] 1. Store TOTP secrets\n');
    const ctx = await folders.context(h);
    expect(ctx.features).toEqual(expect.arrayContaining(['password-reset', 'two-factor']));
  }, 60_000);

  it('keeps one reading per feature, and does not keep a reading of a folder being edited as it is read', async () => {
    // Failing, switching features would serve the other feature's plan, or an edit racing a read could stay unseen for good.
    const dir = copyOf('spec-kit', 'links');
    const { read, reads } = counting();
    const folders = new FolderProjects(read);
    const project = await folders.register(dir);
    const first = { project, via: 'roots' as const, feature: '001-team-accounts' };
    const second = { project, via: 'roots' as const, feature: '002-link-shortener' };
    expect((await folders.context(first)).feature).toBe('001-team-accounts');
    expect((await folders.context(second)).feature).toBe('002-link-shortener');
    expect((await folders.context(first)).feature).toBe('001-team-accounts');
    expect(reads()).toBe(2);

    // Just written: a stat taken after reading could not tell a later edit from the text read, so it is read each time.
    const fresh = join(tmp, 'fresh');
    cpSync(join(examples, 'spec-kit'), fresh, { recursive: true });
    const now = { project: await folders.register(fresh), via: 'roots' as const };
    await folders.context(now);
    await folders.context(now);
    expect(reads()).toBe(4);
  }, 60_000);
});
