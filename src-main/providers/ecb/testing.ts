import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { type LocalServer, startLocalServer } from '../testing';
import { periodBounds } from './parse';

/**
 * A local stand-in for data-api.ecb.europa.eu/service/data for tests: it serves the SDMX-CSV files
 * in fixtures/ for their series, filtered by startPeriod/endPeriod the way the ECB filters (a
 * period is in when it overlaps the window), answers `lastNObservations`, and — like the ECB —
 * answers 404 "No results found." both for an unknown series and for a window with no rows.
 */

const FIXTURES = fileURLToPath(new URL('./fixtures', import.meta.url));
export const ecbFixture = (name: string) => readFileSync(`${FIXTURES}/${name}`, 'utf8');

const FILES: Record<string, string> = {
  'EXR/D.USD.EUR.SP00.A': 'exr-usd-eur-2023.csv',
  'ICP/M.U2.N.000000.4.ANR': 'icp-hicp-2024.csv',
  'EST/B.EU000A2X2A25.WT': 'est-estr-2024-06.csv',
};

export type EcbFault = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface FakeEcb extends LocalServer {
  /** Base URL to configure: `http://127.0.0.1:<port>/service/data`. */
  base: string;
  /** Every request: series id and query. */
  queries: { id: string; query: Record<string, string> }[];
  fault(f: EcbFault | null, times?: number): void;
}

export async function startFakeEcb(): Promise<FakeEcb> {
  const queries: FakeEcb['queries'] = [];
  let fault: EcbFault | null = null;
  let left = Number.POSITIVE_INFINITY;
  const server = await startLocalServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const id = url.pathname.replace(/^\/service\/data\//, '');
    const query = Object.fromEntries(url.searchParams);
    queries.push({ id, query });
    if (fault && left > 0) {
      left--;
      const f = fault;
      if (left === 0) fault = null;
      return f(req, res);
    }
    const notFound = (): void => {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('No results found.');
    };
    const name = FILES[id];
    if (!name || query.format !== 'csvdata') return notFound();
    const [header, ...lines] = ecbFixture(name).split('\r\n').filter(Boolean);
    const from = query.startPeriod ? periodBounds(query.startPeriod)!.start : '0000';
    const to = query.endPeriod ? periodBounds(query.endPeriod)!.end : '9999';
    const iPeriod = header!.split(',').indexOf('TIME_PERIOD');
    let rows = lines.filter((l) => {
      const b = periodBounds(l.split(',')[iPeriod]!)!;
      return b.end >= from && b.start <= to;
    });
    if (query.lastNObservations) rows = rows.slice(-Number(query.lastNObservations));
    if (!rows.length) return notFound();
    res.writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment;filename=data.csv' });
    res.end([header, ...rows].join('\r\n') + '\r\n');
  });
  return {
    ...server,
    base: `${server.url}/service/data`,
    queries,
    fault(f, times = Number.POSITIVE_INFINITY) {
      fault = f;
      left = times;
    },
  };
}
