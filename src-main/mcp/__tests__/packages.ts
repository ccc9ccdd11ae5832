import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Two small project folders as a developer keeps them, written for these tests in the documented
 * layouts (no recorded copy is used): GitHub spec-kit (`.specify/memory/constitution.md`,
 * `specs/<NNN-feature>/{spec,plan,tasks}.md`, tasks in `## Phase 3.1: …` groups with `T001` ids and
 * `[P]` marks) and Kiro (`.kiro/specs/<feature>/{requirements,design,tasks}.md`, `.kiro/steering/`,
 * phases from the top-level checklist items of tasks.md). Each test gets a fresh temp copy.
 */

export const SPEC_KIT: Record<string, string> = {
  '.specify/memory/constitution.md': '# Photo Albums Constitution\n\nEvery feature starts with a failing test. Libraries first, CLI second.\n',
  'specs/001-photo-albums/spec.md':
    '# Feature Specification: Photo Albums\n\nUsers group their photos into albums by date and reorder albums by drag and drop.\n\n## Requirements\n- **FR-001**: System MUST group photos by date.\n',
  'specs/001-photo-albums/plan.md':
    '# Implementation Plan: Photo Albums\n\nVite with vanilla HTML, CSS and JavaScript; metadata in local SQLite.\n\n## Technical Context\n**Language/Version**: TypeScript 5\n',
  'specs/001-photo-albums/tasks.md': `# Tasks: Photo Albums

**Input**: Design documents from \`/specs/001-photo-albums/\`

## Phase 3.1: Setup
- [ ] T001 Create project structure per implementation plan
- [ ] T002 [P] Configure linting and formatting tools

## Phase 3.2: Tests First (TDD)
- [ ] T003 [P] Contract test POST /api/albums in tests/contract/test_albums_post.ts
- [ ] T004 [P] Integration test: photos grouped by date in tests/integration/test_grouping.ts

## Phase 3.3: Core Implementation
- [ ] T005 Album model in src/models/album.ts
`,
};

export const KIRO: Record<string, string> = {
  '.kiro/steering/tech.md': '# Technology\n\nNode 20, Fastify, PostgreSQL.\n',
  '.kiro/specs/order-export/requirements.md':
    '# Requirements Document\n\nOperators export orders as CSV.\n\n### Requirement 1\n\n**User Story:** As an operator, I want to export orders, so that I can reconcile them.\n\n#### Acceptance Criteria\n\n1. WHEN the operator clicks Export THEN the system SHALL download a CSV.\n',
  '.kiro/specs/order-export/design.md': '# Design Document\n\n## Overview\n\nA streaming CSV writer behind GET /orders/export.\n',
  '.kiro/specs/order-export/tasks.md': `# Implementation Plan

- [ ] 1. Set up the export module
  - Create src/export with its index
  - _Requirements: 1.1_

- [ ] 2. Implement the CSV writer
  - [ ] 2.1 Stream rows with a header line
    - _Requirements: 1.1_
  - [ ] 2.2 Escape quotes and commas
    - _Requirements: 1.1_

- [ ] 3. Wire GET /orders/export
  - _Requirements: 1.1_
`,
};

export function writePackage(files: Record<string, string>, name: string): { dir: string; dispose(): void } {
  const root = mkdtempSync(join(tmpdir(), 'forge-roots-'));
  const dir = join(root, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return { dir, dispose: () => rmSync(root, { recursive: true, force: true }) };
}

/** Every file under dir with its size, modification time and text: to show nothing was written there. */
export function snapshot(dir: string): string {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(`${p} ${statSync(p).mtimeMs} ${readFileSync(p, 'utf8')}`);
    }
  };
  walk(dir);
  return out.join('\n');
}
