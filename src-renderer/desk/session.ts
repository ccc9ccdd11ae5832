import { create } from 'zustand';
import type { DeskUser } from './model';

/**
 * Who is signed in to the desk from this window. Held in memory only — never localStorage or a
 * cookie — because a desk machine may be shared: closing or reloading the page signs the person out
 * of this window (the server's session still ends at sign-out or after 12 hours).
 */
export interface DeskSession {
  session: string;
  user: DeskUser;
  expiresAt: string;
}

interface DeskSessionStore {
  current: DeskSession | null;
  /** Why the person was signed out without asking (the session expired or was revoked), shown on the form. */
  endedBecause: string | null;
  signedIn(s: DeskSession): void;
  signedOut(reason?: string): void;
}

export const useDeskSession = create<DeskSessionStore>((set) => ({
  current: null,
  endedBecause: null,
  signedIn: (s) => set({ current: s, endedBecause: null }),
  signedOut: (reason) => set({ current: null, endedBecause: reason ?? null }),
}));
