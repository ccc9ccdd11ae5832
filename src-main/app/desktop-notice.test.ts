import { describe, expect, it } from 'vitest';
import { createFinishedWorkNotifier, desktopNoticeOf } from './desktop-notice';

describe('desktop notifications', () => {
  it('a warning notice (conditions fired in the morning review) becomes a desktop notification', () => {
    expect(
      desktopNoticeOf({ event: 'app/notice', payload: { level: 'warning', message: 'Morning review: 2 invalidation conditions fired (V-003, V-005).' } }),
    ).toEqual({ title: 'Forge', body: 'Morning review: 2 invalidation conditions fired (V-003, V-005).' });
    expect(desktopNoticeOf({ event: 'app/notice', payload: { level: 'error', message: 'x'.repeat(300) } })?.body).toHaveLength(241);
  });

  it('info notices and other events stay in the window: the PM is not interrupted by them', () => {
    expect(desktopNoticeOf({ event: 'app/notice', payload: { level: 'info', message: 'Morning review finished without its structured report.' } })).toBeNull();
    expect(desktopNoticeOf({ event: 'skills/changed', payload: {} })).toBeNull();
    expect(desktopNoticeOf({ event: 'app/notice', payload: { level: 'warning', message: '  ' } })).toBeNull();
  });
});

describe('desktop notifications for finished work', () => {
  const build = (status: string, extra: Record<string, unknown> = {}) =>
    ({ event: 'builds/changed', payload: { id: 'b1', projectName: 'rates-dashboard', status, error: null, ...extra } }) as never;

  it('tells the PM once when a build they started finishes, fails or asks a question', () => {
    const notify = createFinishedWorkNotifier();
    expect(notify(build('running'))).toBeNull();
    expect(notify(build('running'))).toBeNull();
    expect(notify(build('completed'))).toEqual({ title: 'Forge — build', body: 'Build of rates-dashboard finished: every phase signed off.' });
    // The same status again (a token update) is not a second notification.
    expect(notify(build('completed'))).toBeNull();
    const other = createFinishedWorkNotifier();
    other(build('running'));
    expect(other(build('failed', { error: 'The working folder vanished.' }))?.body).toBe(
      'Build of rates-dashboard stopped with an error. The working folder vanished.',
    );
  });

  it('does not announce builds that were already finished when Forge started', () => {
    expect(createFinishedWorkNotifier()(build('completed'))).toBeNull();
  });

  it('announces an analyst run only when it took long enough for the PM to look away', () => {
    let t = 0;
    const notify = createFinishedWorkNotifier({ now: () => t, longRunMs: 20_000 });
    const started = { event: 'agent/text', payload: { runId: 'r1', sessionId: 's', round: 1, text: 'x' } } as never;
    const done = (runId: string, stop = 'answered') =>
      ({ event: 'agent/done', payload: { runId, sessionId: 's', stop, text: '', rounds: 1, demo: false } }) as never;
    notify(started);
    t = 45_000;
    expect(notify(done('r1'))).toEqual({ title: 'Forge — analyst', body: 'The analyst finished after 45 s.' });
    notify({ event: 'agent/text', payload: { runId: 'r2', sessionId: 's', round: 1, text: 'x' } } as never);
    t = 50_000;
    expect(notify(done('r2'))).toBeNull();
  });

  it('says which Expression awaits approval when the analyst proposes one', () => {
    const notify = createFinishedWorkNotifier();
    const result = (content: string, isError = false) =>
      ({
        event: 'agent/tool-result',
        payload: { runId: 'r', sessionId: 's', round: 1, callId: 'c', name: 'write', content, isError, untrusted: false, durationMs: 3 },
      }) as never;
    expect(notify(result("Written: /memory/expressions/E-004.md (status proposed — waiting for the PM's approval)"))).toEqual({
      title: 'Forge — approval needed',
      body: 'E-004 awaits your approval.',
    });
    expect(notify(result('Written: /memory/views/V-002.md'))).toBeNull();
    expect(notify(result('Not written: /memory/expressions/new.md\nBLOCKED by guardrails (1 hard violation):', true))).toBeNull();
  });
});
