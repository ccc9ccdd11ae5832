import { describe, expect, it } from 'vitest';
import { createEventToasts, mutationToast } from './toast-events';

describe('toasts for decisions and finished work', () => {
  it('confirms an approval and a rejection with the record id and a link to it', () => {
    expect(mutationToast('expressions/approve', { id: 'E-004', approved: true, status: 'active', violations: [], message: '' })).toEqual({
      level: 'success',
      message: 'E-004 approved — now active',
      href: '#/expressions/E-004',
    });
    expect(mutationToast('expressions/reject', { id: 'E-004', status: 'rejected' })?.message).toBe('E-004 rejected');
    expect(mutationToast('settings/set', {})?.message).toBe('Settings saved');
  });

  it('says nothing for a blocked approval (the panel shows the limits) or for reads', () => {
    expect(mutationToast('expressions/approve', { id: 'E-004', approved: false, status: 'proposed' })).toBeNull();
    expect(mutationToast('memory/list', {})).toBeNull();
  });

  it('toasts a build once when it finishes, not on every token update, and not for builds finished before', () => {
    const toastFor = createEventToasts();
    const b = (status: string, id = 'b1') => ({ event: 'builds/changed', payload: { id, projectName: 'rates-dashboard', status } }) as never;
    expect(toastFor(b('completed', 'old'))).toBeNull();
    expect(toastFor(b('running'))).toBeNull();
    expect(toastFor(b('completed'))).toEqual({ level: 'success', message: 'Build of rates-dashboard finished: every phase signed off', href: '#/builds/b1' });
    expect(toastFor(b('completed'))).toBeNull();
  });

  it('points at an Expression the analyst proposed', () => {
    const toastFor = createEventToasts();
    const r = {
      event: 'agent/tool-result',
      payload: {
        runId: 'r',
        sessionId: 's',
        round: 1,
        callId: 'c',
        name: 'write',
        content: 'Written: /memory/expressions/E-007.md (status proposed — waiting)',
        isError: false,
        untrusted: false,
        durationMs: 1,
      },
    } as never;
    expect(toastFor(r)).toEqual({ level: 'info', message: 'E-007 awaits your approval', href: '#/expressions/E-007' });
  });
});
