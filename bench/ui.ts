/**
 * `npm run bench -- ui [runs=7] [views=10000]`: the app as a PM's browser meets it. Builds nothing:
 * `npm run build` must have run first (out/renderer). Starts the real `forge serve` (as the e2e
 * fixture does) and drives headless Chromium through Playwright's library API:
 *  - cold start: navigation to the sidebar being clickable, median over fresh browser contexts
 *    (empty cache) on the sample workspace, after one untimed load that warms the server;
 *  - baseline: the same measure on a blank page with one link, from a tiny node:http server here;
 *  - the Views table with 10,000 Views (written through ForgeFS before the server starts) scrolled to
 *    the end: elements inside the table, and p95 of requestAnimationFrame deltas during the scroll;
 *  - initial JS: the scripts the first load requests, decoded bytes and bytes on the wire.
 * Last line: {"bench":"ui","cold_start_ms","blank_ms","ratio","list_dom_nodes","frame_p95_ms","initial_js_bytes","transferred_js_bytes"}.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../e2e/browser';
import { openWorkspace } from '../src-main/fs';
import { median, percentile, report, round } from './_stats';

const RUNS = Number(process.argv[2] ?? 7);
const VIEWS = Number(process.argv[3] ?? 10_000);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const NOT_BUILT = 'bench ui: out/renderer is missing — run `npm run build` first (this bench builds nothing itself).';

/** The app is interactive when a sidebar link can be clicked (Playwright's actionability checks). */
const SIDEBAR_LINK = 'nav[aria-label="Screens"] a[data-nav]';
/** The Views table (src-renderer/memory/RecordTable.tsx): the grid is also the scroller. */
const VIEWS_LIST = '[data-testid="memory-list"][role="grid"]';
const VIEWPORT = { width: 1400, height: 900 };

/** Starts the built `forge serve` on a data folder, the way e2e/fixtures.ts does. */
async function startForge(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(root, 'bin', 'forge.mjs'), 'serve', '--port', '0', '--data', dataDir], {
    cwd: root,
    env: { ...process.env, ANTHROPIC_API_KEY: '', FORGE_HOME: '', FORGE_SCHEDULER: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`forge serve did not start in 60 s:\n${output}`)), 60_000);
    const onData = (d: Buffer) => {
      output += d.toString();
      const m = /Open: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`forge serve exited (${code}):\n${output}`)));
  });
  return { url, child };
}

async function stopForge(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
  });
}

/** The baseline page: as small as a page can be while still having something to click. */
async function startBlankServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const html = '<!doctype html><meta charset="utf-8"><title>blank</title><nav aria-label="Screens"><a data-nav href="#/x">x</a></nav>';
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Load {
  ms: number;
  jsBytes: number;
  jsTransferred: number;
  encodings: Set<string>;
}

/** One cold load in a fresh context: time to a clickable sidebar, and the scripts it fetched. */
async function coldLoad(browser: Browser, url: string): Promise<Load> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  const scripts: Promise<{ decoded: number; wire: number; encoding: string }>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    scripts.push(
      (async () => {
        const body = await response.body();
        const sizes = await response.request().sizes();
        return { decoded: body.length, wire: sizes.responseBodySize, encoding: (await response.headerValue('content-encoding')) ?? 'identity' };
      })(),
    );
  });
  const t0 = performance.now();
  await page.goto(url, { waitUntil: 'commit' });
  await page.locator(SIDEBAR_LINK).first().click({ trial: true, timeout: 60_000 });
  const ms = performance.now() - t0;
  // Chunks the first screen pulls in right after it renders still belong to the first load.
  await page.waitForLoadState('networkidle');
  const got = await Promise.all(scripts);
  await context.close();
  return {
    ms,
    jsBytes: got.reduce((s, x) => s + x.decoded, 0),
    jsTransferred: got.reduce((s, x) => s + x.wire, 0),
    encodings: new Set(got.map((x) => x.encoding)),
  };
}

/** Writes the sample workspace plus `count` Views through the real write path, before the server opens it. */
async function buildBigWorkspace(dataDir: string, count: number): Promise<void> {
  const ws = openWorkspace({ dataDir });
  await ws.ready;
  const agent = { actor: 'agent' as const, sessionId: 'bench-ui' };
  const statuses = ['active', 'watching', 'invalidated', 'closed'];
  const scopes = ['US rates', 'EUR rates', 'FX', 'equity', 'commodities', 'credit'];
  for (let done = 0; done < count; done += 1000) {
    await ws.fs.transaction((tx) => {
      for (let i = done; i < Math.min(count, done + 1000); i++) {
        tx.writeFile(
          '/memory/views/new.md',
          `# new — Bench view ${i} on ${scopes[i % scopes.length]}\nstatus: ${statuses[i % statuses.length]}\nconfidence: ${(0.1 + (i % 85) / 100).toFixed(2)}\nscope: ${scopes[i % scopes.length]}\ncategory: macro_regime\nhorizon: 2027-0${1 + (i % 9)}-15\n---\n## SUMMARY\nA bench View number ${i}.\n\n## INVALIDATION\n- Bench condition ${i}.\n`,
          agent,
        );
      }
    });
  }
  ws.close();
}

/**
 * Runs in the page (plain JS: the bench's type-check has no DOM library). Scrolls the Views list to
 * its very end, loading every page, and records each requestAnimationFrame delta on the way. A PM
 * flinging the list: 1,500 px a frame, until the end stays the end for 60 frames (nothing left to load).
 */
const SCROLL_TO_END = `async (selector) => {
  const list = document.querySelector(selector);
  const scrollable = (el) => el.scrollHeight > el.clientHeight + 1 && /(auto|scroll)/.test(getComputedStyle(el).overflowY);
  const scroller = scrollable(list) ? list : (Array.from(list.querySelectorAll('*')).find(scrollable) ?? list);
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const deltas = [];
  let last = await frame();
  let settled = 0;
  let height = scroller.scrollHeight;
  const started = performance.now();
  while (performance.now() - started < 180000 && settled < 60) {
    scroller.scrollTop += 1500;
    const now = await frame();
    deltas.push(now - last);
    last = now;
    const atEnd = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 2;
    settled = atEnd && scroller.scrollHeight === height ? settled + 1 : 0;
    height = scroller.scrollHeight;
  }
  const rows = list.querySelectorAll('[data-id], [role="option"], [role="row"], tr');
  const lastRow = rows[rows.length - 1];
  return {
    nodes: list.querySelectorAll('*').length,
    deltas,
    scrollHeight: scroller.scrollHeight,
    lastRow: lastRow ? (lastRow.dataset.id ?? lastRow.textContent.slice(0, 60)) : '',
  };
}`;

async function scrollToEnd(page: Page): Promise<{ nodes: number; deltas: number[]; scrollHeight: number; lastRow: string }> {
  return page.evaluate(`(${SCROLL_TO_END})(${JSON.stringify(VIEWS_LIST)})`);
}

async function main(): Promise<void> {
  if (!existsSync(join(root, 'out', 'renderer', 'index.html'))) {
    console.error(NOT_BUILT);
    process.exit(1);
  }
  const sampleDir = mkdtempSync(join(tmpdir(), 'forge-bench-ui-'));
  const bigDir = mkdtempSync(join(tmpdir(), 'forge-bench-ui-views-'));
  const blank = await startBlankServer();
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs, headless: true });
  const children: ChildProcess[] = [];
  try {
    // 1. Cold start on the sample workspace, against a blank page, interleaved so load drifts hit both.
    const sample = await startForge(sampleDir);
    children.push(sample.child);
    const first = await coldLoad(browser, sample.url);
    console.log(`first load after server start (server caches cold): ${first.ms.toFixed(0)} ms`);
    await coldLoad(browser, blank.url);
    const app: Load[] = [];
    const base: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      app.push(await coldLoad(browser, sample.url));
      base.push((await coldLoad(browser, blank.url)).ms);
    }
    const coldMs = median(app.map((l) => l.ms));
    const blankMs = median(base);
    const js = app[app.length - 1];
    console.log(
      `cold start to a clickable sidebar: median ${coldMs.toFixed(0)} ms over ${RUNS} fresh contexts (${app.map((l) => l.ms.toFixed(0)).join(', ')}); blank page ${blankMs.toFixed(0)} ms`,
    );
    console.log(
      `initial JS: ${(js.jsBytes / 1e6).toFixed(2)} MB decoded, ${(js.jsTransferred / 1e6).toFixed(2)} MB on the wire (${[...js.encodings].join(', ')})`,
    );
    await stopForge(sample.child);

    // 2. The Views list with many Views, scrolled to the end.
    const t0 = performance.now();
    await buildBigWorkspace(bigDir, VIEWS);
    console.log(`wrote ${VIEWS} Views through ForgeFS in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const big = await startForge(bigDir);
    children.push(big.child);
    const context = await browser.newContext({ viewport: VIEWPORT });
    const page = await context.newPage();
    await page.goto(`${big.url}#/views`);
    await page.locator(VIEWS_LIST).first().waitFor({ timeout: 60_000 });
    const scroll = await scrollToEnd(page);
    await context.close();
    await stopForge(big.child);
    const frameP95 = percentile(scroll.deltas, 95);
    console.log(
      `Views list: ${scroll.nodes} elements in the list at the end (last row ${scroll.lastRow}, ${scroll.scrollHeight} px tall); ${scroll.deltas.length} frames, p50 ${percentile(scroll.deltas, 50).toFixed(1)} ms, p95 ${frameP95.toFixed(1)} ms`,
    );

    report({
      bench: 'ui',
      cold_start_ms: round(coldMs, 0),
      blank_ms: round(blankMs, 0),
      ratio: round(coldMs / blankMs, 1),
      list_dom_nodes: scroll.nodes,
      frame_p95_ms: round(frameP95, 1),
      initial_js_bytes: js.jsBytes,
      transferred_js_bytes: js.jsTransferred,
    });
  } finally {
    for (const child of children) await stopForge(child);
    await browser.close();
    await blank.close();
    rmSync(sampleDir, { recursive: true, force: true });
    rmSync(bigDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
