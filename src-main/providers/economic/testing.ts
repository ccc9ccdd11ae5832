import type { IncomingMessage, ServerResponse } from 'node:http';
import { type LocalServer, sendJson, startLocalServer } from '../testing';

/**
 * A local stand-in for api.stlouisfed.org/fred for tests: answers shaped like FRED's JSON
 * (https://fred.stlouisfed.org/docs/api/fred/) from a small real-time table, so vintage
 * (ALFRED) requests return the values as they were known on the asked date. `fault` lets a test
 * replace the next answers with a failure.
 */

export const FRED_TEST_KEY = 'abcdefghijklmnopqrstuvwxyz123456';

/** One value of a series as known over a real-time period (ALFRED's model). */
interface Row {
  date: string;
  value: string;
  realtime_start: string;
  realtime_end: string;
}

const FAR = '9999-12-31';

/** RSAFS, monthly: September 2024 was first published as 100.0 and revised to 101.5 in November. */
const RSAFS: Row[] = [
  { date: '2024-06-01', value: '96.0', realtime_start: '2024-07-16', realtime_end: FAR },
  { date: '2024-07-01', value: '97.5', realtime_start: '2024-08-15', realtime_end: FAR },
  { date: '2024-08-01', value: '.', realtime_start: '2024-09-17', realtime_end: FAR },
  { date: '2024-09-01', value: '100.0', realtime_start: '2024-10-17', realtime_end: '2024-11-14' },
  { date: '2024-09-01', value: '101.5', realtime_start: '2024-11-15', realtime_end: FAR },
  { date: '2024-10-01', value: '102.0', realtime_start: '2024-11-15', realtime_end: FAR },
];

export const RSAFS_INFO = {
  id: 'RSAFS',
  realtime_start: '2026-11-21',
  realtime_end: '2026-11-21',
  title: 'Advance Retail Sales: Retail Trade and Food Services',
  observation_start: '1992-01-01',
  observation_end: '2024-10-01',
  frequency: 'Monthly',
  frequency_short: 'M',
  units: 'Millions of Dollars',
  units_short: 'Mil. of $',
  seasonal_adjustment: 'Seasonally Adjusted',
  seasonal_adjustment_short: 'SA',
  last_updated: '2024-11-15 07:31:02-06',
  popularity: 71,
  notes: 'Advance estimates are revised.',
};

export type FredFault = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface FakeFred extends LocalServer {
  /** Base URL to configure, `http://127.0.0.1:<port>/fred`. */
  base: string;
  /** The query of every request, by endpoint (`series`, `series/observations`, `series/search`). */
  queries: { endpoint: string; query: Record<string, string> }[];
  /** Serve this instead of the real answer for the next `times` requests (default: until cleared). */
  fault(f: FredFault | null, times?: number): void;
}

export async function startFakeFred(today = '2026-11-21'): Promise<FakeFred> {
  const queries: FakeFred['queries'] = [];
  let fault: FredFault | null = null;
  let faultLeft = Number.POSITIVE_INFINITY;
  const server = await startLocalServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const endpoint = url.pathname.replace(/^\/fred\//, '');
    const q = Object.fromEntries(url.searchParams);
    queries.push({ endpoint, query: q });
    if (fault && faultLeft > 0) {
      faultLeft--;
      const f = fault;
      if (faultLeft === 0) fault = null;
      return f(req, res);
    }
    if (q.api_key !== FRED_TEST_KEY) {
      return sendJson(res, 400, {
        error_code: 400,
        error_message: `Bad Request.  The value for variable api_key is not registered.  Read https://fred.stlouisfed.org/docs/api/api_key.html for more information. (${q.api_key})`,
      });
    }
    if (q.file_type !== 'json')
      return sendJson(res, 400, { error_code: 400, error_message: 'Bad Request.  Variable file_type is not one of the following: xml, json.' });
    const rtEnd = q.realtime_end ?? today;
    const rtStart = q.realtime_start ?? rtEnd;
    if (endpoint === 'series') {
      if (q.series_id !== 'RSAFS') return sendJson(res, 400, { error_code: 400, error_message: 'Bad Request.  The series does not exist.' });
      return sendJson(res, 200, { realtime_start: rtStart, realtime_end: rtEnd, seriess: [{ ...RSAFS_INFO, realtime_start: rtStart, realtime_end: rtEnd }] });
    }
    if (endpoint === 'series/search') {
      const hits = /retail/i.test(q.search_text ?? '')
        ? [RSAFS_INFO, { ...RSAFS_INFO, id: 'RSXFS', title: 'Advance Retail Sales: Retail Trade', popularity: 60 }]
        : [];
      return sendJson(res, 200, {
        realtime_start: rtStart,
        realtime_end: rtEnd,
        order_by: 'search_rank',
        sort_order: 'desc',
        count: hits.length,
        offset: 0,
        limit: Number(q.limit ?? 1000),
        seriess: hits,
      });
    }
    if (endpoint === 'series/observations') {
      if (q.series_id !== 'RSAFS') return sendJson(res, 400, { error_code: 400, error_message: 'Bad Request.  The series does not exist.' });
      // Rows valid at some point of the real-time window (or at each vintage date), as FRED's output_type 1 gives them.
      const vintages = q.vintage_dates?.split(',');
      let rows = vintages
        ? vintages.flatMap((v) => RSAFS.filter((r) => r.realtime_start <= v && v <= r.realtime_end).map((r) => ({ ...r, realtime_start: v, realtime_end: v })))
        : RSAFS.filter((r) => r.realtime_start <= rtEnd && rtStart <= r.realtime_end).map((r) => ({
            ...r,
            realtime_start: r.realtime_start < rtStart ? rtStart : r.realtime_start,
            realtime_end: r.realtime_end > rtEnd ? rtEnd : r.realtime_end,
          }));
      rows = rows.filter((r) => (!q.observation_start || r.date >= q.observation_start) && (!q.observation_end || r.date <= q.observation_end));
      rows.sort((a, b) => (q.sort_order === 'desc' ? b.date.localeCompare(a.date) : a.date.localeCompare(b.date)));
      const count = rows.length;
      rows = rows.slice(0, Number(q.limit ?? 100000));
      return sendJson(res, 200, {
        realtime_start: rtStart,
        realtime_end: rtEnd,
        observation_start: q.observation_start ?? '1600-01-01',
        observation_end: q.observation_end ?? FAR,
        units: q.units ?? 'lin',
        output_type: 1,
        file_type: 'json',
        order_by: 'observation_date',
        sort_order: q.sort_order ?? 'asc',
        count,
        offset: 0,
        limit: Number(q.limit ?? 100000),
        observations: rows,
      });
    }
    sendJson(res, 404, { error_code: 404, error_message: 'Not Found' });
  });
  return {
    ...server,
    base: `${server.url}/fred`,
    queries,
    fault(f, times = Number.POSITIVE_INFINITY) {
      fault = f;
      faultLeft = times;
    },
  };
}
