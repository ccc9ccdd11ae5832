import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CONTRACT_MAP, CONTRACT_NAMES } from '../config';
import { createGovernanceServer } from '../server';
import { createMcpService, type McpService, type McpServiceOptions } from '../service';

/** A small but complete contracts folder: every file present, phases 0..4. */
export const PHASES_MD = `# Plan

Intro text that is not a phase.

## Phase 0 — Genesis
Deliverables: scaffold, first test.

## Phase 1 — Storage
Deliverables: SQLite store.

\`\`\`md
## Phase 99 — inside a code fence, not a phase
\`\`\`

## Phase 2 — API
Deliverables: procedures.

## Phase 3 — UI
Deliverables: screens.

## Phase 4 — Ship
Deliverables: installers.
`;

export function writeContracts(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const name of CONTRACT_NAMES) {
    const { file, format } = CONTRACT_MAP[name];
    const body =
      name === 'phases'
        ? PHASES_MD
        : format === 'json'
          ? JSON.stringify({ modules: { core: { path: 'src/core', mayImport: [] }, ui: { path: 'src/ui', mayImport: ['core'] } } })
          : format === 'yaml'
            ? 'paths:\n  /api/app/info:\n    method: POST\n  /events:\n    method: GET\n'
            : `# ${name}\n\nThe ${name} contract of the fixture project.\n`;
    writeFileSync(join(dir, file), body);
  }
}

export interface Fixture {
  root: string;
  contractsDir: string;
  dataDir: string;
  workDir: string;
  dispose(): void;
}

export function fixture(): Fixture {
  const root = mkdtempSync(join(tmpdir(), 'forge-mcp-'));
  const contractsDir = join(root, 'contracts');
  const dataDir = join(root, 'data');
  const workDir = join(root, 'work');
  writeContracts(contractsDir);
  mkdirSync(dataDir, { recursive: true });
  mkdirSync(workDir, { recursive: true });
  return { root, contractsDir, dataDir, workDir, dispose: () => rmSync(root, { recursive: true, force: true }) };
}

/** A real SDK client connected to a fresh server over the in-memory transport pair. */
export async function connect(f: Fixture, extra: Partial<McpServiceOptions> = {}): Promise<{ client: Client; service: McpService; close(): Promise<void> }> {
  const service = createMcpService({ dataDir: f.dataDir, contractsDir: f.contractsDir, workDir: f.workDir, mode: 'local', env: {}, ...extra });
  const server = createGovernanceServer(service, { transport: 'memory' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'forge-test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    client,
    service,
    async close() {
      await client.close();
      await server.close();
      service.close();
    },
  };
}

export function textOf(result: unknown): string {
  const r = result as { content: { type: string; text: string }[] };
  return r.content.map((c) => c.text).join('');
}

export function jsonOf<T = Record<string, unknown>>(result: unknown): T {
  return JSON.parse(textOf(result)) as T;
}
