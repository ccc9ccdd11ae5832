import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConflictError } from '../../common/errors';
import { ForgeFS, parseRecord, renderRecord, trackerWriter } from '../../fs';
import { CsvProvider, ProviderRegistry } from '../../providers';
import { MarketProvider } from '../../providers/market';
import { Store } from '../../store';
import { marketPortFromRegistry, type MarketPort } from '../market-port';
import { closedExpressionContent, type ExpressionExit } from '../outcome-record';
import type { CloseExpressionPort } from '../outcome-tracker';

/**
 * A real workspace (SQLite file, ForgeFS) and real market data (the `market` provider over a
 * local folder, the `datasets` provider over CSV files) for the tracking tests.
 */
export interface TrackingWorld {
  dir: string;
  store: Store;
  fs: ForgeFS;
  market: MarketPort;
  registry: ProviderRegistry;
  /** Sets the ISO clock ForgeFS stamps writes with. */
  setClock(iso: string): void;
  dispose(): void;
}

export type Series = Record<string, [string, number][]>;

export function trackingWorld(data: { prices?: Series; yields?: Series; datasets?: Record<string, string> } = {}): TrackingWorld {
  const dir = mkdtempSync(join(tmpdir(), 'forge-tracking-'));
  let clock = '2026-01-01T00:00:00.000Z';
  const store = Store.open(join(dir, 'forge.db'));
  const fs = new ForgeFS({ store, skillsDir: join(dir, 'skills'), now: () => clock });

  const marketDir = join(dir, 'market');
  mkdirSync(marketDir);
  const symbols = ['symbol,kind,name,unit,source'];
  const prices = ['date,symbol,close,currency,source'];
  const yields = ['date,symbol,yield_pct,source'];
  for (const [sym, rows] of Object.entries(data.prices ?? {})) {
    symbols.push(`${sym},price,${sym} test series,USD,test`);
    for (const [d, v] of rows) prices.push(`${d},${sym},${v},USD,test`);
  }
  for (const [sym, rows] of Object.entries(data.yields ?? {})) {
    symbols.push(`${sym},yield,${sym} test yield,%,test`);
    for (const [d, v] of rows) yields.push(`${d},${sym},${v},test`);
  }
  writeFileSync(join(marketDir, 'symbols.csv'), `${symbols.join('\n')}\n`);
  writeFileSync(join(marketDir, 'prices.csv'), `${prices.join('\n')}\n`);
  writeFileSync(join(marketDir, 'yields.csv'), `${yields.join('\n')}\n`);
  writeFileSync(join(marketDir, 'implied_vols.csv'), 'date,symbol,tenor,delta,vol_pct,source\n');

  const csvDir = join(dir, 'datasets');
  mkdirSync(csvDir);
  for (const [name, csv] of Object.entries(data.datasets ?? {})) writeFileSync(join(csvDir, `${name}.csv`), csv);

  const registry = new ProviderRegistry([new MarketProvider({ dir: marketDir }), new CsvProvider({ dir: csvDir })]);
  return {
    dir,
    store,
    fs,
    registry,
    market: marketPortFromRegistry(registry),
    setClock: (iso) => {
      clock = iso;
    },
    dispose: () => {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The close the host wires to the write pipeline (tools/write-pipeline.ts applyWrite), reproduced
 * here because tracking may not import tools: in one transaction the Expression is written closed
 * with its `closed_at` stamp, the previous version archived (ForgeFS), and the pipeline's Outcome
 * stub (`status: recorded`, P&L pending) written — so the tests see exactly what the tracker meets
 * in the app. Records every call.
 */
export function pipelineClose(fs: ForgeFS, calls: { id: string; exit: ExpressionExit }[] = []): CloseExpressionPort {
  return async (id, exit) => {
    calls.push({ id, exit });
    const path = `/memory/expressions/${id}.md`;
    try {
      return await fs.transaction((tx) => {
        const closed = parseRecord(closedExpressionContent(tx.readFile(path), exit));
        const at = new Date().toISOString();
        tx.writeFile(path, renderRecord({ ...closed, header: { ...closed.header, closed_at: at } }), { actor: 'scheduler' });
        const stub = renderRecord({
          id: 'OUT-000',
          title: `Outcome of ${id}: ${closed.title}`,
          header: { expression: id, view_id: String(closed.header.view_id ?? ''), status: 'recorded', exit_reason: exit.reason, closed_at: at, pnl: 'pending' },
          body: '## SUMMARY\nRecorded by the write pipeline.\n',
        });
        tx.writeFile('/memory/outcomes/new.md', stub, trackerWriter());
        return { ok: true, message: `Written: ${path}` };
      });
    } catch (e) {
      if (e instanceof ConflictError) return { ok: false, message: e.message };
      throw e;
    }
  };
}

/** Consecutive calendar days from `from` (inclusive), one per value. */
export function daily(from: string, values: number[]): [string, number][] {
  const t0 = Date.parse(`${from}T00:00:00Z`);
  return values.map((v, i) => [new Date(t0 + i * 86_400_000).toISOString().slice(0, 10), v]);
}
