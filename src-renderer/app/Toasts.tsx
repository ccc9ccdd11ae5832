import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Icon } from './Icon';
import { useNotices } from './Notices';
import { mutationToast } from './toast-events';
import { toast, useToasts } from './toast-store';
import './toasts.css';

/**
 * The one corner where messages appear: the core's notices (kept until dismissed) and the
 * window's toasts (gone by themselves). One labelled region; each message is its own status (or
 * alert, for errors), so screen readers announce it once, and nothing sits in a nested live region.
 */
export function Toasts() {
  const notices = useNotices();
  const { toasts, dismiss } = useToasts();
  const queryClient = useQueryClient();
  // Decisions made on any screen (approve, reject, save) are confirmed here, once each.
  useEffect(
    () =>
      queryClient.getMutationCache().subscribe((e) => {
        if (e.type !== 'updated' || e.action.type !== 'success') return;
        const note = mutationToast(String(e.mutation.options.mutationKey?.[0] ?? ''), e.action.data);
        if (note) toast(note.level, note.message, { href: note.href });
      }),
    [queryClient],
  );
  return (
    <section className="notices" aria-label="Notifications" data-testid="toasts">
      {notices.notices.map((n) => (
        <div key={`n${n.id}`} className={`notice notice-${n.level}`} role={n.level === 'error' ? 'alert' : 'status'}>
          <span>{n.message}</span>
          <button type="button" className="icon-button" aria-label="Dismiss notification" onClick={() => notices.dismiss(n.id)}>
            <Icon name="close" size={14} />
          </button>
        </div>
      ))}
      {toasts.map((t) => (
        <div key={`t${t.id}`} className={`notice toast toast-${t.level}`} role={t.level === 'error' ? 'alert' : 'status'} data-testid="toast">
          <span>
            {t.message}
            {t.href && (
              <>
                {' '}
                <a href={t.href} onClick={() => dismiss(t.id)}>
                  Open
                </a>
              </>
            )}
          </span>
          <button type="button" className="icon-button" aria-label="Dismiss message" onClick={() => dismiss(t.id)}>
            <Icon name="close" size={14} />
          </button>
        </div>
      ))}
    </section>
  );
}
