import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SkillLoader } from '../../skills';
import { analystTools } from '../../tools';
import { subAgentToolFactory } from '../../tools/dispatch';
import { openTestWorkspace, type TestWorkspace } from '../../tools/testing';
import { harness, removeDir, type Harness } from './tasks-harness';

/**
 * A published skill dropped into the skills folder, used by a sub-agent the way the analyst
 * dispatches it: the real executor, agent loop and run_script tool; only the model is scripted.
 * Its Python script runs only after the PM allows the skill's scripts.
 */
const PUBLISHED = fileURLToPath(new URL('../../skills/fixtures/published-skills', import.meta.url));

let tw: TestWorkspace;
let root: string;
let h: Harness | null = null;
const allowed = new Set<string>();
let n = 0;

beforeAll(async () => {
  tw = await openTestWorkspace();
  root = mkdtempSync(join(tmpdir(), 'forge-published-run-'));
  cpSync(PUBLISHED, root, { recursive: true });
});
afterAll(() => {
  tw.close();
  removeDir(root);
});
afterEach(async () => {
  await h?.close();
  h = null;
  allowed.clear();
});

/** The executor as the app wires it, over a lenient loader that asks the PM's permission (here: `allowed`). */
async function make(turns: Parameters<typeof harness>[0]) {
  const skills = new SkillLoader(root, { mode: 'lenient', scriptsAllowed: (s) => allowed.has(s) });
  h = await harness(turns, {
    tw,
    executor: {
      skills,
      toolsFor: subAgentToolFactory({ available: analystTools({ providers: tw.providers }), skills, contextFor: (sid) => tw.context({ sessionId: sid }) }),
    },
  });
  return h;
}

const rows = [{ price: 4 }, { price: '8' }];
const callSummarize = { reply: { toolCalls: [{ name: 'run_script', input: { script: 'summarize.py', input: { rows, column: 'price' } } }] } };

describe.runIf(process.platform === 'linux')("a sub-agent running a published skill's Python script", () => {
  it("reads the refusal naming the setting while the PM has not allowed the skill's scripts", async () => {
    const x = await make({
      'subagent:P': {
        turns: [
          callSummarize,
          {
            expect: { toolResult: 'run_script', isError: true, contains: 'turn on "Allow scripts" for "csv-insights" in Settings → Skills' },
            reply: { text: '## SUMMARY\nThe script is not allowed yet.' },
          },
        ],
      },
    });
    const sid = `sess_pub_${++n}`;
    x.executor.submit(sid, { id: 'P', skill: 'csv-insights', objective: 'P summarise prices' });
    const p = await x.executor.waitFor(sid, 'P');
    expect(p.error).toBeNull();
    expect(p.status).toBe('ok');
    expect(x.model.finished).toBe(true);
  });

  it('gets the computed summary once the PM allowed the skill', async () => {
    allowed.add('csv-insights');
    const x = await make({
      'subagent:Q': {
        turns: [
          callSummarize,
          { expect: { toolResult: 'run_script', isError: false, contains: '"mean": 6' }, reply: { text: '## SUMMARY\nMean price is 6.' } },
        ],
      },
    });
    const sid = `sess_pub_${++n}`;
    x.executor.submit(sid, { id: 'Q', skill: 'csv-insights', objective: 'Q summarise prices' });
    const q = await x.executor.waitFor(sid, 'Q');
    expect(q.error).toBeNull();
    expect(q.status).toBe('ok');
    expect(x.model.finished).toBe(true);
  });

  it("grants run_script on the PM's switch to a skill written for Claude Code (allowed-tools: Bash), and not before", async () => {
    // Published skills name Bash for their scripts, never Forge's run_script.
    const dir = join(root, 'csv-insights-cc');
    cpSync(join(root, 'csv-insights'), dir, { recursive: true });
    const md = readFileSync(join(dir, 'SKILL.md'), 'utf8')
      .replace('name: csv-insights', 'name: csv-insights-cc')
      .replace(/^allowed-tools: .*$/m, 'allowed-tools: Bash(python3:*) Read');
    writeFileSync(join(dir, 'SKILL.md'), md);
    const before = await make({ 'subagent:R': { turns: [{ reply: { text: '## SUMMARY\nNo script tool.' } }] } });
    const sid = `sess_pub_${++n}`;
    before.executor.submit(sid, { id: 'R', skill: 'csv-insights-cc', objective: 'R summarise prices' });
    const r = await before.executor.waitFor(sid, 'R');
    expect(before.executor.events(sid, 'R').find((e) => e.kind === 'started')?.detail).toMatch(/^tools: read; not granted to sub-agents: bash/);
    expect(r.status).toBe('ok');
    await before.close();
    h = null;

    allowed.add('csv-insights-cc');
    const after = await make({
      'subagent:S': {
        turns: [
          callSummarize,
          { expect: { toolResult: 'run_script', isError: false, contains: '"mean": 6' }, reply: { text: '## SUMMARY\nMean price is 6.' } },
        ],
      },
    });
    after.executor.submit(sid, { id: 'S', skill: 'csv-insights-cc', objective: 'S summarise prices' });
    const s2 = await after.executor.waitFor(sid, 'S');
    expect(after.executor.events(sid, 'S').find((e) => e.kind === 'started')?.detail).toContain('run_script');
    expect(s2.status).toBe('ok');
    expect(after.model.finished).toBe(true);
  });
});
