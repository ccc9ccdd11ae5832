import { describe, expect, it } from 'vitest';
import { createUnsavedGuards } from './useUnsavedGuard';

describe('unsaved changes guard', () => {
  it('lets the PM move freely when nothing is unsaved', () => {
    const g = createUnsavedGuards();
    expect(g.getState().hold('#/settings', '#/home')).toBe(false);
    expect(g.getState().pending).toBeNull();
  });

  it('holds a route change while Settings has unsaved edits and asks first', () => {
    const g = createUnsavedGuards();
    g.getState().mark('s', 'Settings');
    expect(g.getState().hold('#/settings', '#/home')).toBe(true);
    expect(g.getState().pending).toBe('#/home');
  });

  it('Keep editing stays put and keeps the guard, so the next attempt asks again', () => {
    const g = createUnsavedGuards();
    g.getState().mark('s', 'Settings');
    g.getState().hold('#/settings', '#/views');
    expect(g.getState().answer(false)).toBeNull();
    expect(g.getState().dirty).toEqual({ s: 'Settings' });
    expect(g.getState().pending).toBeNull();
    expect(g.getState().hold('#/settings', '#/views')).toBe(true);
  });

  it('Discard goes where the PM was heading, for every listener of that hashchange, and only there', () => {
    const g = createUnsavedGuards();
    let reset = 0;
    g.getState().mark('s', 'Settings', () => reset++);
    g.getState().hold('#/settings', '#/chat');
    expect(g.getState().answer(true)).toBe('#/chat');
    // The form is put back at once: coming back before the next screen has even loaded shows no stale edits.
    expect(reset).toBe(1);
    expect(g.getState().hold('#/settings', '#/chat')).toBe(false);
    expect(g.getState().hold('#/settings', '#/chat')).toBe(false);
    // The edits are given up: a click while the old screen is still unmounting goes through.
    expect(g.getState().hold('#/chat', '#/settings')).toBe(false);
    // New edits on a screen guard again.
    g.getState().mark('s2', 'Settings');
    expect(g.getState().hold('#/settings', '#/mcp')).toBe(true);
  });

  it('stops guarding once the form is saved or unmounted', () => {
    const g = createUnsavedGuards();
    g.getState().mark('s', 'Settings');
    g.getState().mark('s', null);
    expect(g.getState().dirty).toEqual({});
    expect(g.getState().hold('#/settings', '#/home')).toBe(false);
  });
});
