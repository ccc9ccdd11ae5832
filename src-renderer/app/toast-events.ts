import type { EventMessage, ProcedureName } from '../../src-main/api';
import type { Toast } from './toast-store';

/**
 * Which finished work and decisions deserve a toast, as pure functions: a decision the PM made
 * (approved, rejected, settings saved), a build that ends or asks a question, an Expression the
 * analyst proposed. The screens keep their own detailed messages; a toast is the short confirmation
 * that survives moving to another screen.
 */

export interface ToastSpec {
  level: Toast['level'];
  message: string;
  href?: string;
}

/** An Expression's page, addressed by id as the palette's jump-to-id does (`#/expressions/E-004`). */
const record = (id: string) => `#/expressions/${encodeURIComponent(id)}`;

/** The toast for a successful call, by procedure; null for calls that need none. */
export function mutationToast(name: ProcedureName | string, value: unknown): ToastSpec | null {
  const v = (value ?? {}) as { id?: string; approved?: boolean; status?: string; message?: string };
  switch (name) {
    case 'settings/set':
      return { level: 'success', message: 'Settings saved' };
    case 'expressions/approve':
      // A blocked approval is explained in the approval panel itself, with its table of limits.
      return v.approved ? { level: 'success', message: `${v.id} approved — now ${v.status}`, href: record(v.id ?? '') } : null;
    case 'expressions/reject':
      return { level: 'success', message: `${v.id} rejected`, href: record(v.id ?? '') };
    case 'proposals/approve':
      return { level: 'success', message: `Proposal ${v.id} approved: the skill has a new version` };
    case 'proposals/reject':
      return { level: 'success', message: `Proposal ${v.id} rejected` };
    default:
      return null;
  }
}

const BUILD_ENDS: Record<string, { level: Toast['level']; words: string }> = {
  completed: { level: 'success', words: 'finished: every phase signed off' },
  failed: { level: 'error', words: 'stopped with an error' },
  waiting_answer: { level: 'info', words: 'is waiting for your answer' },
};

const AWAITING = /Written: \S*\/(E-\d+)\.md \(status proposed/;

/** Toasts from pushed events; remembers each build's last status so a repeat is not a second toast. */
export function createEventToasts() {
  const builds = new Map<string, string>();
  return (message: EventMessage): ToastSpec | null => {
    if (message.event === 'builds/changed') {
      const b = message.payload as EventMessage<'builds/changed'>['payload'];
      const before = builds.get(b.id);
      builds.set(b.id, b.status);
      const end = BUILD_ENDS[b.status];
      if (!end || before === b.status || before === undefined) return null;
      return { level: end.level, message: `Build of ${b.projectName} ${end.words}`, href: `#/builds/${encodeURIComponent(b.id)}` };
    }
    if (message.event === 'agent/tool-result') {
      const p = message.payload as EventMessage<'agent/tool-result'>['payload'];
      const id = p.name === 'write' && !p.isError ? AWAITING.exec(p.content)?.[1] : undefined;
      return id ? { level: 'info', message: `${id} awaits your approval`, href: record(id) } : null;
    }
    return null;
  };
}
