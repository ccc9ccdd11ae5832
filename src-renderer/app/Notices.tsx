import { create } from 'zustand';

export interface Notice {
  id: number;
  level: 'info' | 'warning' | 'error';
  message: string;
}

/** Messages pushed by the core (`app/notice`), kept until dismissed; shown by Toasts.tsx with the window's toasts. */
interface NoticeStore {
  notices: Notice[];
  push(level: Notice['level'], message: string): void;
  dismiss(id: number): void;
}

let nextId = 1;

export const useNotices = create<NoticeStore>((set) => ({
  notices: [],
  push: (level, message) => set((s) => ({ notices: [...s.notices.slice(-4), { id: nextId++, level, message }] })),
  dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
}));
