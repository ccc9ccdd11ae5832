import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProjectStore } from '../mcp';
import { type Db, openDatabase } from '../store';
import { checkContractLeaks, pinnedDocumentTexts } from './audit';
import { prepareBuild } from './prepare';

/**
 * A build of a spec-kit or Kiro package pins that package's documents (issue #28), and the audit's
 * copied-text check compares the product with them. If this failed, a builder working from a
 * spec-kit spec.md could paste the spec's paragraphs into the product's README or source and the
 * sign-off would pass it, because only Forge's own 15 contract names were ever pinned or compared.
 */

const FIXTURES = join(__dirname, '..', 'specs', 'fixtures');
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path, 'utf8')).digest('hex');

let tmp: string;
let db: Db;
let projects: ProjectStore;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'forge-pin-docs-'));
  db = openDatabase(join(tmp, 'forge.db'));
  projects = new ProjectStore(db);
});
afterAll(() => {
  db.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** A copy of a real package (src-main/specs/fixtures, origins in its README), plus any files written here. */
function packageFrom(fixture: string, extra: Record<string, string> = {}): string {
  const root = join(tmp, `${fixture}-${Math.random().toString(36).slice(2, 8)}`);
  cpSync(join(FIXTURES, fixture), root, { recursive: true });
  for (const [rel, text] of Object.entries(extra)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

const start = (workDir: string) => prepareBuild({ workDir, mode: 'mcp', mini: false, projectName: () => 'Fixture project', projects });

/**
 * Written here (no filled-in spec.md ships with spec-kit; the fixture has its templates), in the
 * shape of spec-kit's templates/spec-template.md: user scenarios, then functional requirements.
 */
const SPEC_MD = `# Feature Specification: Photo albums

**Feature Branch**: \`001-feature-template\`

## User Scenarios & Testing

### Primary User Story
A photographer returning from a trip wants to sort hundreds of pictures into albums grouped by date, drag whole albums to reorder them on the main page, and never see an album nested inside another album.

## Requirements

### Functional Requirements
- **FR-001**: System MUST let users create albums.
- **FR-002**: System MUST group photos by the date they were taken.
`;

describe('a spec package build pins its documents', () => {
  it.each(['spec-kit-real', 'kiro-real'])('%s: the snapshot lists every document, with hashes of the files on disk', async (fixture) => {
    const root = packageFrom(fixture);
    const prepared = await start(root);
    const snapshot = await projects.getBuildContracts(prepared.id);
    const docs = snapshot.documents ?? [];
    expect(prepared.package).not.toBeNull();
    expect(docs.map((d) => d.doc_id)).toEqual(prepared.package!.documents.map((d) => d.id).sort());
    expect(docs.length).toBeGreaterThanOrEqual(3);
    for (const d of docs) {
      expect(d.content_hash, d.doc_id).toBe(sha256(join(root, d.doc_id)));
      expect(d.tokens, d.doc_id).toBeGreaterThan(0);
    }
    // The texts, for the audit, are the files as they were when the build started.
    for (const d of projects.buildDocuments(prepared.id)) expect(d.content).toBe(readFileSync(join(root, d.doc_id), 'utf8'));
    const kinds = new Set(docs.map((d) => d.kind));
    expect(kinds).toContain(fixture === 'kiro-real' ? 'requirements' : 'constitution');
  });

  it('keeps the pinned text when the spec is edited after the build started', async () => {
    const root = packageFrom('spec-kit-real', { 'specs/001-feature-template/spec.md': SPEC_MD });
    const prepared = await start(root);
    writeFileSync(join(root, 'specs/001-feature-template/spec.md'), '# Rewritten\n');
    const spec = projects.buildDocuments(prepared.id).find((d) => d.doc_id === 'specs/001-feature-template/spec.md');
    expect(spec?.content).toBe(SPEC_MD);
    expect(() => db.prepare('DELETE FROM build_documents WHERE build_id = ?').run(prepared.id)).toThrow(/cannot be deleted/);
  });
});

describe("the audit compares the product with the build's pinned documents", () => {
  it("flags a file that pastes a paragraph of spec-kit's spec.md, and passes an original file and the spec itself", async () => {
    const root = packageFrom('spec-kit-real', { 'specs/001-feature-template/spec.md': SPEC_MD });
    const prepared = await start(root);
    // The builder's product, written after the build started.
    writeFileSync(
      join(root, 'README.md'),
      '# Albums\n\nA photographer returning from a trip wants to sort hundreds of pictures into albums grouped by date, drag whole albums to reorder them on the main page.\n',
    );
    mkdirSync(join(root, 'src'));
    writeFileSync(
      join(root, 'src', 'albums.ts'),
      '// Albums group photos by capture day; the main page orders them by drag and drop.\nexport const albums = [];\n',
    );

    const findings = checkContractLeaks(root, pinnedDocumentTexts(projects.buildDocuments(prepared.id)));
    const copied = findings.filter((f) => f.source === 'contract_text' && f.message.includes('verbatim'));
    expect(copied.map((f) => [f.severity, f.file])).toEqual([['severe', 'README.md']]);
    expect(copied[0]!.message).toContain('from the spec document specs/001-feature-template/spec.md');
    expect(copied[0]!.message).toContain('a photographer returning from a trip');
  });
});
