import type { APIRequestContext } from '@playwright/test';
import { type MockAnthropicServer, startMockAnthropicServer } from '../src-main/llm/testing';
import { expect, type ForgeServer, test } from './fixtures';

/**
 * Issue 29 §4 end to end (the e2e server runs no scheduler, so no morning has a saved report): the
 * date picker replays today's morning against a local stand-in for the Anthropic API and shows three
 * columns — the REPLAY, what was said that morning (nothing saved), what happened since — and the
 * replay's write never reaches live memory. If
 * it failed, a PM would have no way to see what the analyst would have said with only what was
 * known then, or a replay would leave notes in their memory.
 */

const VERDICT = (note: string) => `Nothing fired.\n\n\`\`\`json\n{"views":[{"id":"V-001","invalidations_fired":[],"action":"hold","note":"${note}"}]}\n\`\`\``;

let mock: MockAnthropicServer;

test.beforeEach(async () => {
  // The replay's analyst tries a write, then answers "REPLAYED".
  let n = 0;
  mock = await startMockAnthropicServer({
    responder: (r) => {
      n++;
      const sent = JSON.stringify(r.body.messages ?? []);
      if (!sent.includes('REPLAY —')) return { text: 'Not a replay.' };
      if (!sent.includes('tool_result'))
        return {
          toolCalls: [
            { name: 'write', input: { path: '/memory/observations/new.md', content: '# new — REPLAY NOTE\n---\n## SUMMARY\nWritten by a replay.\n' } },
          ],
        };
      return { text: VERDICT(`REPLAYED: hold (${n})`) };
    },
  });
});

test.afterEach(async () => {
  await mock.close();
});

async function api<T>(request: APIRequestContext, forge: Pick<ForgeServer, 'baseURL' | 'token'>, name: string, input: unknown = {}): Promise<T> {
  const r = await request.post(`${forge.baseURL}/api/${name}`, { data: input, headers: { authorization: `Bearer ${forge.token}` } });
  const body = (await r.json()) as { ok: boolean; value?: T; error?: { code: string; message: string } };
  if (!body.ok) throw new Error(`${name}: ${body.error?.code} ${body.error?.message}`);
  return body.value as T;
}

test('a morning replays from the date picker: REPLAY beside the original and what followed, live memory unchanged', async ({ page, forge, request }) => {
  test.setTimeout(120_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  await api(request, forge, 'settings/set', { settings: { anthropicBaseUrl: mock.url }, secrets: { anthropicApiKey: 'sk-ant-e2e-replay' } });

  await page.goto(`${forge.url}#/schedule`);
  await expect(page.getByTestId('screen-schedule')).toBeVisible();
  const observationsBefore = await api<{ total: number }>(request, forge, 'memory/list', { path: '/memory/observations/' });
  // Today in the schedule's zone (the seeded Views were written today, so the replay has them to review).
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  await page.getByTestId('schedule-replay-date').fill(today);
  await page.getByTestId('schedule-replay-start').click();
  const result = page.getByTestId('schedule-replay-result');
  await expect(result).toBeVisible({ timeout: 60_000 });
  await expect(result.getByTestId('schedule-replay-label')).toContainText('REPLAY');
  await expect(result.getByTestId('schedule-replay-column-replay')).toContainText('REPLAYED: hold');
  await expect(result.getByTestId('schedule-replay-column-original')).toContainText('No morning review report was saved that day.');
  await expect(result.getByTestId('schedule-replay-column-since')).toContainText('No Outcome and no fired invalidation condition since.');

  // The replay's write went to its scratch copy: the live Observations are as they were.
  const observationsAfter = await api<{ total: number }>(request, forge, 'memory/list', { path: '/memory/observations/' });
  expect(observationsAfter.total).toBe(observationsBefore.total);
  expect(problems).toEqual([]);
});
