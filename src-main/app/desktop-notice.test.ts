import { describe, expect, it } from 'vitest';
import { desktopNoticeOf } from './desktop-notice';

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
