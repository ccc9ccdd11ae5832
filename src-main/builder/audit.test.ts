import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditFinding } from '../api/builds';
import { blocksAdvance, checkContractLeaks, checkLayerBoundaries, summariseFindings } from './audit';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'forge-audit-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** The seed's shape: layers with a glob and forbidden import patterns. */
const layered = {
  layers: [
    { name: 'routers', glob: 'app/routers/*.py', forbidden: [{ pattern: 'sqlite3|app\\.repos', reason: 'routers call services, never the database' }] },
    { name: 'repos', glob: 'app/repos/*.py', forbidden: [{ pattern: 'fastapi|APIRouter', reason: 'no HTTP in the data layer' }] },
    { name: 'routes', glob: 'src/routes/**/*.ts', forbidden: [{ pattern: '/db/', reason: 'routes go through services' }] },
  ],
};

describe('checkLayerBoundaries — a target project (layers with globs)', () => {
  it('flags each import that crosses a forbidden layer, naming file, line, import and rule', () => {
    const dir = project({
      'app/routers/trades.py':
        '# routers must not touch sqlite3 directly\nfrom fastapi import APIRouter\nfrom app.repos.trades import (\n    list_trades,\n)\n',
      'app/repos/trades.py': 'import sqlite3\nfrom fastapi import APIRouter as R\n',
      'app/services/trades.py': 'from app.repos.trades import list_trades\n',
      'src/routes/users/list.ts': "import { db } from '../../db/client';\nimport { listUsers } from '../../services/users';\n",
      'src/services/users.ts': "import { db } from '../db/client';\nexport const listUsers = () => db;\n",
    });
    const findings = checkLayerBoundaries(dir, layered);
    expect(findings.map((f) => [f.severity, f.source, f.file])).toEqual([
      ['severe', 'boundaries', 'app/repos/trades.py'],
      ['severe', 'boundaries', 'app/routers/trades.py'],
      ['severe', 'boundaries', 'src/routes/users/list.ts'],
    ]);
    expect(findings[0]!.message).toBe(
      'app/repos/trades.py:2 imports "fastapi", which the repos layer forbids (/fastapi|APIRouter/) — no HTTP in the data layer.',
    );
    expect(findings[1]!.message).toContain('app/routers/trades.py:3 imports "app.repos.trades", which the routers layer forbids');
    expect(findings[2]!.message).toContain('src/routes/users/list.ts:1 imports "../../db/client", which the routes layer forbids');
  });

  it('finds nothing in a project that keeps its layers, and reads the contract from its JSON text too', () => {
    const dir = project({
      'app/routers/trades.py': 'from fastapi import APIRouter\nfrom app.services.trades import list_trades\n',
      'src/routes/users.ts': "import { listUsers } from '../services/users';\n",
      'node_modules/x/src/routes/bad.ts': "import '../db/client';\n",
    });
    expect(checkLayerBoundaries(dir, JSON.stringify(layered))).toEqual([]);
  });

  it('warns instead of guessing when the contract cannot be read or a pattern is broken', () => {
    const dir = project({ 'app/routers/a.py': 'import os\n' });
    expect(checkLayerBoundaries(dir, { rules: [] })).toEqual([
      {
        severity: 'warning',
        source: 'boundaries',
        file: null,
        message: 'The boundaries contract has neither "layers" nor "modules", so no layer rule was checked.',
      },
    ]);
    expect(checkLayerBoundaries(dir, '{"layers": [')[0]!.message).toBe('The boundaries contract is not valid JSON, so no layer rule was checked.');
    const broken = checkLayerBoundaries(dir, { layers: [{ name: 'routers', glob: 'app/routers/*.py', forbidden: [{ pattern: '(unclosed', reason: '' }] }] });
    expect(broken).toHaveLength(1);
    expect(broken[0]).toMatchObject({ severity: 'warning', message: expect.stringContaining('/(unclosed/ is not a valid regular expression') });
  });
});

describe("checkLayerBoundaries — Forge's own shape (modules with mayImport)", () => {
  const rules = {
    modules: { core: { path: 'src/core', mayImport: [] }, ui: { path: 'src/ui', mayImport: ['core'] } },
    packages: { 'react-dom': { onlyIn: ['ui'] } },
  };

  it('flags a lower module importing a higher one and a package used outside its onlyIn', () => {
    const dir = project({
      'src/core/model.ts': "import { render } from '../ui/view';\nexport const m = 1;\n",
      'src/core/shell.ts': "import { createRoot } from 'react-dom';\n",
      'src/ui/view.ts': "import { m } from '../core/model';\nimport { hydrateRoot } from 'react-dom';\nexport const render = () => m;\n",
    });
    const findings = checkLayerBoundaries(dir, rules);
    expect(findings.map((f) => f.message)).toEqual([
      'src/core/model.ts:1 imports "../ui/view" from module ui; module core may import no other module.',
      'src/core/shell.ts:1 imports the package "react-dom", which only ui may use (module core may not).',
    ]);
    expect(blocksAdvance(findings)).toBe(true);
  });
});

const blueprint = `# Blueprint — Ledger

Ledger keeps a household's shared expenses in one place so that every member can see who paid for
what, settle balances at the end of the month and export a clean statement for the accountant.

## Data

\`\`\`sql
CREATE TABLE expenses (id INTEGER PRIMARY KEY, payer TEXT NOT NULL, amount_cents INTEGER NOT NULL, note TEXT, created_at TEXT NOT NULL)
\`\`\`

Run npm test before every commit; the user must never see a failing build.
`;

const physics = `paths:
  /expenses:
    get:
      description: Returns every expense of the household ordered by date with the newest first and the payer named
`;

describe('checkContractLeaks', () => {
  const contracts = [
    { name: 'blueprint', text: blueprint },
    { name: 'physics', text: physics },
  ];

  it('flags a README with a pasted contract paragraph, reflowed and restyled, naming the contract', () => {
    const dir = project({
      'README.md':
        "# Ledger\n\n- **Ledger keeps a household's shared expenses** in one place so that every member\n  can see who paid for what, settle balances.\n",
    });
    const findings = checkContractLeaks(dir, contracts);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'severe', source: 'contract_text', file: 'README.md' });
    expect(findings[0]!.message).toMatch(
      /^README\.md repeats 2\d words verbatim from the blueprint contract \("ledger keeps a household s shared expenses in one place/,
    );
  });

  it('flags a description from a YAML contract copied into a source comment', () => {
    const dir = project({ 'src/routes.ts': '// Returns every expense of the household ordered by date with the newest first\nexport {};\n' });
    expect(checkContractLeaks(dir, contracts).map((f) => [f.severity, f.file, f.message.includes('physics contract')])).toEqual([
      ['severe', 'src/routes.ts', true],
    ]);
  });

  it('finds nothing in a clean project that shares only short common phrases and the schema it implements', () => {
    const dir = project({
      'README.md': '# Ledger\n\nTrack shared costs. Run npm test to check that the user can add an expense.\n',
      'src/db/schema.sql':
        'CREATE TABLE expenses (id INTEGER PRIMARY KEY, payer TEXT NOT NULL, amount_cents INTEGER NOT NULL, note TEXT, created_at TEXT NOT NULL)\n',
      '.gitignore': 'node_modules/\nForge/\n',
      'Forge/Contracts/blueprint.md': blueprint,
      'node_modules/ledger-docs/README.md': blueprint,
    });
    expect(checkContractLeaks(dir, contracts)).toEqual([]);
  });

  it('flags mentions of Forge: severe in a README, a warning in source', () => {
    const dir = project({
      'README.md': '# Ledger\n\nThe rules live in Forge/Contracts and were followed.\n',
      'src/index.ts': '// see forge_get_contract("physics") for the API\nexport {};\n',
    });
    const findings = checkContractLeaks(dir, contracts);
    expect(findings.map((f) => [f.severity, f.file])).toEqual([
      ['severe', 'README.md'],
      ['warning', 'src/index.ts'],
    ]);
    expect(findings[0]!.message).toContain('README.md:3 mentions the Forge/ folder');
  });

  it("finds a paragraph of Forge's own contracts in a project and stays fast next to a 230 KB phases file", () => {
    const root = join(__dirname, '..', '..', 'contracts');
    const real = readdirSync(root)
      .filter((f) => f.endsWith('.md') || f.endsWith('.yaml'))
      .map((f) => ({ name: f.replace(/\.\w+$/, ''), text: readFileSync(join(root, f), 'utf8') }));
    const manifesto = real.find((c) => c.name === 'manifesto')!.text;
    const pasted = manifesto.split('\n').slice(2, 5).join('\n'); // the middle of principle 1
    const phases = bigPhases(230_000);
    const deep = phases.slice(200_000, 200_400);
    const dir = project({ 'docs/notes.md': `# Notes\n\n${pasted}\n`, 'src/plan.ts': `/* ${deep} */\n`, 'src/ok.ts': 'export const ok = true;\n' });
    const started = performance.now();
    const findings = checkContractLeaks(dir, [...real, { name: 'phases', text: phases }]);
    const ms = performance.now() - started;
    expect(findings.map((f) => [f.file, /from the (\w+) contract/.exec(f.message)?.[1]])).toEqual([
      ['docs/notes.md', 'manifesto'],
      ['src/plan.ts', 'phases'],
    ]);
    expect(ms).toBeLessThan(2000); // ~50 ms on an idle machine; generous for a loaded CI box
  });
});

/** Prose made of a seeded stream of words: no 12-word run repeats by chance. */
function bigPhases(chars: number): string {
  const vocab =
    'service layer phase deliverable endpoint schema table query route screen export import record audit test build plan task user ledger expense payer balance month statement accountant household member settle note amount create update delete list read write check verify report'.split(
      ' ',
    );
  let seed = 42;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed;
  };
  const out: string[] = [];
  let len = 0;
  let phase = 0;
  while (len < chars) {
    const line = out.length % 40 === 0 ? `## Phase ${phase++} — part\n` : `${Array.from({ length: 14 }, () => vocab[next() % vocab.length]).join(' ')}.\n`;
    out.push(line);
    len += line.length;
  }
  return out.join('');
}

describe('summariseFindings and blocksAdvance', () => {
  const f = (severity: AuditFinding['severity'], message: string, file: string | null = null): AuditFinding => ({ severity, source: 'auditor', file, message });

  it('counts by severity, lists severe first and says the phase is held', () => {
    const s = summariseFindings([
      f('warning', 'a test cannot fail', 'test/x.test.ts'),
      f('severe', 'the users route is missing'),
      f('warning', 'unused export'),
    ]);
    expect(s).toBe(
      'Audit: 1 severe, 2 warnings — the phase cannot advance until the severe ones are fixed.\n- [severe] auditor: the users route is missing\n- [warning] auditor test/x.test.ts: a test cannot fail\n- [warning] auditor: unused export',
    );
  });

  it('lets a phase with only warnings advance', () => {
    expect(blocksAdvance([f('warning', 'w'), f('info', 'i')])).toBe(false);
    expect(summariseFindings([])).toBe('Audit: no findings.');
  });
});
