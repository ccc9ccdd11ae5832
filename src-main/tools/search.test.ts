import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { analystTools } from './analyst-tools';
import { runTool } from './define';
import { openTestWorkspace, type TestWorkspace } from './testing';

/** The analyst's search tool over a real seeded workspace: memory and this session's files. */
let t: TestWorkspace;
beforeEach(async () => {
  t = await openTestWorkspace();
});
afterEach(() => t.close());

const agent = (sessionId: string) => ({ actor: 'agent' as const, sessionId });
const search = (args: Record<string, unknown>, sessionId = 'sess_a') =>
  runTool(analystTools({ providers: t.providers }), 'search', args, t.context({ sessionId }));

describe('default scope: memory and the current session', () => {
  it("the analyst's search with no scope returns a memory record and a session note together", async () => {
    await t.ws.fs.forSession('sess_a').writeFile('/session/fed_notes.md', '# Fed notes\nFed cuts before the ECB: payrolls decide it.', agent('sess_a'));
    const r = await search({ query: 'Fed cuts before the ECB', max_results: 10 });
    expect(r.isError).toBeFalsy();
    expect(r.content).toMatch(/^Search: 'Fed cuts before the ECB' in \/memory\/ \+ \/session\//);
    expect(r.content).toContain('/memory/views/V-001.md');
    expect(r.content).toContain('/session/fed_notes.md');
  });

  it('scope /memory/ still searches memory alone', async () => {
    await t.ws.fs.forSession('sess_a').writeFile('/session/fed_notes.md', 'Fed cuts before the ECB', agent('sess_a'));
    const r = await search({ scope: '/memory/', query: 'Fed cuts before the ECB', max_results: 10 });
    expect(r.content).toContain('/memory/views/V-001.md');
    expect(r.content).not.toContain('/session/');
  });

  it('scope session finds a note the analyst wrote earlier in this session, and only this session', async () => {
    await t.ws.fs.forSession('sess_a').writeFile('/session/nzd.md', '# NZD\nDairy auction prices collapsed.', agent('sess_a'));
    await t.ws.fs.forSession('sess_b').writeFile('/session/nzd.md', '# NZD\nDairy auction in another chat.', agent('sess_b'));
    const r = await search({ scope: 'session', query: 'dairy auction' });
    expect(r.content).toMatch(/^Search: 'dairy auction' in \/session\/ \(1 results\)/);
    expect(r.content).toContain('Dairy auction prices collapsed.');
    expect(r.content).not.toContain('another chat');
  });
});
