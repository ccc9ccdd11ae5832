import { useEffect, useId, useRef } from 'react';
import { create } from 'zustand';

/**
 * Edits the PM has not saved are not thrown away without asking. A screen with a dirty form
 * calls `useUnsavedGuard(dirty, 'Settings')`; every route change goes through `holdNavigation`
 * (useRoute.ts), which keeps the PM where they are and asks "Discard unsaved changes?"; closing
 * the tab asks through the browser's own `beforeunload` prompt.
 */

export interface UnsavedGuards {
  /** What has unsaved edits, by guard id → the words for it ("Settings"). */
  dirty: Record<string, string>;
  /** The address the PM tried to go to while something was unsaved; the prompt is open while set. */
  pending: string | null;
  /** The address the PM confirmed leaving for, so that navigation is not held again. */
  leaving: string | null;
  /** How each guarded screen throws its edits away when the PM says Discard. */
  discards: Record<string, () => void>;
  mark(id: string, what: string | null, discard?: () => void): void;
  /** Route change from `from` to `to` (hashes): true when it must wait for the PM's answer. */
  hold(from: string, to: string): boolean;
  /** The PM's answer. Returns the address to go to, or null to stay. */
  answer(discard: boolean): string | null;
}

export function createUnsavedGuards() {
  return create<UnsavedGuards>((set, get) => ({
    dirty: {},
    pending: null,
    leaving: null,
    discards: {},
    mark(id, what, discard) {
      const dirty = { ...get().dirty };
      const discards = { ...get().discards };
      if (what === null) {
        delete dirty[id];
        delete discards[id];
      } else {
        dirty[id] = what;
        if (discard) discards[id] = discard;
      }
      // Once nothing is unsaved, a confirmed departure has happened and needs no exemption.
      set(Object.keys(dirty).length === 0 ? { dirty, discards, leaving: null } : { dirty, discards });
    },
    hold(from, to) {
      if (from === to) return false;
      // Every listener of the same hashchange asks; the confirmed one passes for all of them.
      if (get().leaving === to) return false;
      if (Object.keys(get().dirty).length === 0) return false;
      set({ pending: to });
      return true;
    },
    answer(discard) {
      const to = get().pending;
      if (!discard || to === null) {
        set({ pending: null });
        return null;
      }
      // The edits are given up now: the screen that held them may stay mounted (hidden) until the
      // next screen's code has loaded, so it resets its form, and a click meanwhile must not ask again.
      for (const discard of Object.values(get().discards)) discard();
      set({ pending: null, leaving: to, dirty: {}, discards: {} });
      return to;
    },
  }));
}

export const useUnsavedGuards = createUnsavedGuards();

const hashOf = (url: string) => {
  const i = url.indexOf('#');
  return i < 0 ? '' : url.slice(i);
};

/**
 * Called by useRoute before it follows a hash change. When something is unsaved it puts the old
 * address back (replaceState fires no second hashchange) and opens the prompt; returns true then.
 */
export function holdNavigation(oldURL: string, newURL: string): boolean {
  const from = hashOf(oldURL);
  const to = hashOf(newURL);
  if (!useUnsavedGuards.getState().hold(from, to)) return false;
  window.history.replaceState(window.history.state, '', from || window.location.pathname + window.location.search);
  return true;
}

/**
 * Registers `what` (e.g. "Settings") as having unsaved edits while `dirty` is true; `discard`
 * puts the form back when the PM chooses Discard.
 */
export function useUnsavedGuard(dirty: boolean, what: string, discard?: () => void) {
  const id = useId();
  const mark = useUnsavedGuards((s) => s.mark);
  // The latest discard, without re-registering the guard on every render.
  const onDiscard = useRef(discard);
  onDiscard.current = discard;
  useEffect(() => {
    mark(id, dirty ? what : null, () => onDiscard.current?.());
    return () => mark(id, null);
  }, [id, dirty, what, mark]);
  useEffect(() => {
    if (!dirty) return;
    // Closing or reloading the tab: the browser shows its own "Leave site?" prompt.
    const onUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, [dirty]);
}

/** The in-app prompt; mounted once in App. */
export function UnsavedPrompt() {
  const pending = useUnsavedGuards((s) => s.pending);
  const dirty = useUnsavedGuards((s) => s.dirty);
  const answer = useUnsavedGuards((s) => s.answer);
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (pending !== null) keep.current?.focus();
  }, [pending]);
  if (pending === null) return null;
  const what = [...new Set(Object.values(dirty))].join(', ') || 'this screen';
  const decide = (discard: boolean) => {
    const to = answer(discard);
    if (to !== null) window.location.hash = to;
  };
  return (
    <div className="unsaved-backdrop">
      <div
        className="unsaved-dialog card"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="unsaved-title"
        aria-describedby="unsaved-text"
        data-testid="unsaved-prompt"
        onKeyDown={(e) => {
          if (e.key === 'Escape') decide(false);
        }}
      >
        <h2 id="unsaved-title">Discard unsaved changes?</h2>
        <p id="unsaved-text">Your changes in {what} have not been saved. Leaving now throws them away.</p>
        <div className="form-actions">
          <button type="button" className="button primary" ref={keep} onClick={() => decide(false)} data-testid="unsaved-keep">
            Keep editing
          </button>
          <button type="button" className="button danger" onClick={() => decide(true)} data-testid="unsaved-discard">
            Discard changes
          </button>
        </div>
      </div>
    </div>
  );
}
