import { create } from 'zustand';

/**
 * Short confirmations and errors that belong to no form ("Settings saved", "E-004 approved",
 * "Build finished"). Each goes away by itself; errors stay longer, since they need reading.
 */
export interface Toast {
  id: number;
  level: 'success' | 'info' | 'error';
  message: string;
  /** A screen to open from the toast, e.g. the finished build. */
  href?: string;
}

export interface ToastStore {
  toasts: Toast[];
  show(level: Toast['level'], message: string, options?: { href?: string; ms?: number }): number;
  dismiss(id: number): void;
}

/** How long a toast stays, by level: long enough to read a sentence, short enough not to pile up. */
export const toastDurations: Record<Toast['level'], number> = { success: 4000, info: 5000, error: 9000 };
/** Older toasts give way: more than this on screen is noise, not information. */
export const MAX_TOASTS = 4;

type Timer = (run: () => void, ms: number) => unknown;

/** A store per app (tests build their own with a fake timer); `useToasts` is the window's. */
export function createToastStore(timer: Timer = (run, ms) => setTimeout(run, ms)) {
  let nextId = 1;
  return create<ToastStore>((set, get) => ({
    toasts: [],
    show(level, message, options) {
      const id = nextId++;
      // The same sentence twice in a row (a double click) is one toast, refreshed.
      const rest = get().toasts.filter((t) => !(t.message === message && t.level === level));
      const toast: Toast = { id, level, message, ...(options?.href ? { href: options.href } : {}) };
      set({ toasts: [...rest, toast].slice(-MAX_TOASTS) });
      timer(() => get().dismiss(id), options?.ms ?? toastDurations[level]);
      return id;
    },
    dismiss(id) {
      if (get().toasts.some((t) => t.id === id)) set({ toasts: get().toasts.filter((t) => t.id !== id) });
    },
  }));
}

export const useToasts = createToastStore();

/** For code outside React (mutation callbacks, event handlers): `toast('success', 'Settings saved')`. */
export function toast(level: Toast['level'], message: string, options?: { href?: string; ms?: number }): number {
  return useToasts.getState().show(level, message, options);
}
