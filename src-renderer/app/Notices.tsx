import { create } from 'zustand';
import { Icon } from './Icon';

export interface Notice {
  id: number;
  level: 'info' | 'warning' | 'error';
  message: string;
}

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

/** Messages pushed by the core (`app/notice`), shown until dismissed. */
export function Notices() {
  const { notices, dismiss } = useNotices();
  return (
    <div className="notices" role="region" aria-live="polite" aria-label="Notifications">
      {notices.map((n) => (
        <div key={n.id} className={`notice notice-${n.level}`} role={n.level === 'error' ? 'alert' : 'status'}>
          <span>{n.message}</span>
          <button type="button" className="icon-button" aria-label="Dismiss notification" onClick={() => dismiss(n.id)}>
            <Icon name="close" size={14} />
          </button>
        </div>
      ))}
    </div>
  );
}
