import { describe, expect, it } from 'vitest';
import { createToastStore, MAX_TOASTS, toastDurations } from './toast-store';

function harness() {
  const timers: { run: () => void; ms: number }[] = [];
  const store = createToastStore((run, ms) => timers.push({ run, ms }));
  return { store, timers };
}

describe('toasts', () => {
  it('shows a toast and removes it when its time is up, so confirmations do not pile up on screen', () => {
    const { store, timers } = harness();
    store.getState().show('success', 'Settings saved');
    expect(store.getState().toasts.map((t) => t.message)).toEqual(['Settings saved']);
    expect(timers[0]!.ms).toBe(toastDurations.success);
    timers[0]!.run();
    expect(store.getState().toasts).toEqual([]);
  });

  it('keeps errors up longer than confirmations, because they need reading', () => {
    const { store, timers } = harness();
    store.getState().show('error', 'Could not reach the data provider');
    expect(timers[0]!.ms).toBeGreaterThan(toastDurations.success);
  });

  it('shows a repeated message once (a double click is not two toasts), and at most a few at a time', () => {
    const { store } = harness();
    store.getState().show('success', 'E-004 approved');
    store.getState().show('success', 'E-004 approved');
    expect(store.getState().toasts).toHaveLength(1);
    for (let i = 0; i < 10; i++) store.getState().show('info', `Build ${i} finished`);
    expect(store.getState().toasts).toHaveLength(MAX_TOASTS);
    expect(store.getState().toasts.at(-1)!.message).toBe('Build 9 finished');
  });

  it('lets the PM dismiss one toast without touching the others, and ignores a late timer', () => {
    const { store, timers } = harness();
    const a = store.getState().show('info', 'one');
    store.getState().show('info', 'two', { href: '#/builds/b1' });
    store.getState().dismiss(a);
    expect(store.getState().toasts).toEqual([{ id: 2, level: 'info', message: 'two', href: '#/builds/b1' }]);
    timers[0]!.run();
    expect(store.getState().toasts).toHaveLength(1);
  });
});
