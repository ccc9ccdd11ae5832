/**
 * `npm run bench -- api`: the cost of the headless transport. Times `app/health` over HTTP
 * (real socket, token, JSON envelope) against a direct in-process call on the same core, in
 * the same run. Last line: {"bench":"api","http_p50_ms","http_p95_ms","direct_p50_ms","ratio"}.
 */
import { Agent, request } from 'node:http';
import { startHeadlessHost } from '../src-main/host/http/server';
import { tempCore } from '../src-main/host/testing';
import { median, percentile, report, round, timeRuns } from './_stats';

const n = Number(process.argv.find((a) => a.startsWith('--n='))?.slice(4) ?? 2000);
const t = tempCore();
const host = await startHeadlessHost({ core: t.core });
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const body = '{}';

function callHttp(): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: host.port,
        method: 'POST',
        path: '/api/app/health',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': body.length, authorization: `Bearer ${host.token}` },
      },
      (res) => {
        let data = '';
        res.on('data', (c) => (data += c));
        res.on('end', () => (JSON.parse(data).ok ? resolve() : reject(new Error(data))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const direct = await timeRuns(
  n,
  async () => {
    const r = await t.core.invoke('app/health', {});
    if (!r.ok) throw new Error(r.error.message);
  },
  200,
);
const http = await timeRuns(n, callHttp, 200);

console.log(`app/health x${n}`);
console.log(`  direct  p50 ${median(direct).toFixed(4)} ms  p95 ${percentile(direct, 95).toFixed(4)} ms`);
console.log(`  http    p50 ${median(http).toFixed(4)} ms  p95 ${percentile(http, 95).toFixed(4)} ms`);

agent.destroy();
await host.close();
await t.dispose();
report({
  bench: 'api',
  http_p50_ms: round(median(http), 4),
  http_p95_ms: round(percentile(http, 95), 4),
  direct_p50_ms: round(median(direct), 4),
  ratio: round(median(http) / median(direct), 2),
});
