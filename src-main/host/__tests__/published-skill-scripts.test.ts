import { cpSync, mkdtempSync } from 'node:fs';
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

describe.runIf(process.platform === 'linux')('a sub-agent running a published skill\'s Python script', () => {
  it('reads the refusal naming the setting while the PM has not allowed the skill\'s scripts', async () => {
    const x = await make({
      'subagent:P': {
        turns: [
          callSummarize,
          { expect: { toolResult: 'run_script', isError: true, contains: 'turn on "Allow scripts" for "csv-insights" in Settings → Skills' }, reply: { text: '## SUMMARY\nThe script is not allowed yet.' } },
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
});
