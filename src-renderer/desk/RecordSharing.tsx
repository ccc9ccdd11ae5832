import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ProcedureOutput } from '../../src-main/api';
import { readableMessage } from '../api/errors';
import { useProcedure, useProcedureMutation } from '../api/hooks';
import { type DeskSession, useDeskSession } from './session';
import { useIsDesk } from './status';
import './sharing.css';

type Access = ProcedureOutput<'memory/access'>;
type Person = ProcedureOutput<'desk/people'>['people'][number];
type Visibility = Access['visibility'];

/** What can be shared (as the desk's DeskSharing.SHAREABLE_CATEGORIES): research notes and Views, not Expressions. */
const SHAREABLE = /^\/memory\/(research|views|thematic|macro_regime|observations)\/[A-Za-z0-9][A-Za-z0-9._-]{0,127}\.md$/;

/** "Private", "Shared with Alice and Bob", "Desk-wide", in the words the record page shows. */
export function accessLine(access: Access, me: string | null): string {
  const owner = access.owner === null ? 'Forge wrote it for the desk' : access.owner.userId === me ? 'Yours' : `${access.owner.displayName}’s`;
  const names = access.sharedWith.map((p) => p.displayName);
  const who =
    access.visibility === 'desk'
      ? 'Desk-wide: everyone on the desk can read it'
      : access.visibility === 'shared'
        ? `Shared with ${names.length <= 1 ? (names[0] ?? 'nobody') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`}`
        : 'Private: only its owner (and risk) can read it';
  return `${owner}. ${who}.`;
}

/**
 * On a desk, who can read this research note or View, and for its owner a control to change it.
 * Nothing shows on one PM's own workspace, on an archived version, or on an Expression (its
 * visibility follows its book).
 */
export function RecordSharing(props: { path: string }) {
  const me = useDeskSession((s) => s.current);
  return <RecordSharingAs path={props.path} me={me} />;
}

/** RecordSharing for a given signed-in person (or none). */
export function RecordSharingAs(props: { path: string; me: DeskSession | null }) {
  const isDesk = useIsDesk();
  if (!isDesk || !props.me || !SHAREABLE.test(props.path)) return null;
  return <RecordSharingOnDesk path={props.path} me={props.me.user.userId} session={props.me.session} />;
}

function RecordSharingOnDesk(props: { path: string; me: string; session: string }) {
  const access = useProcedure('memory/access', { path: props.path });
  const [editing, setEditing] = useState(false);
  if (access.isPending) return null;
  if (access.isError) {
    return (
      <p className="muted record-sharing" data-testid="record-sharing-error">
        Who can read this is unknown: {readableMessage(access.error)}
      </p>
    );
  }
  return <SharingPanel access={access.data} me={props.me} session={props.session} editing={editing} onEditing={setEditing} />;
}

/** The line and, for the owner, the form (separate from the queries, so it renders in tests alone). */
export function SharingPanel(props: { access: Access; me: string; session: string; editing: boolean; onEditing: (on: boolean) => void }) {
  const { access } = props;
  return (
    <section className="record-sharing" aria-label="Who can read this" data-testid="record-sharing">
      <p className="record-sharing-line">
        <span data-testid="record-sharing-line" data-visibility={access.visibility}>
          {accessLine(access, props.me)}
        </span>
        {access.mayChange && !props.editing && (
          <button type="button" className="button small" data-testid="record-sharing-change" aria-expanded={false} onClick={() => props.onEditing(true)}>
            Change who can read it
          </button>
        )}
      </p>
      {access.mayChange && props.editing && <SharingForm access={access} me={props.me} session={props.session} onDone={() => props.onEditing(false)} />}
    </section>
  );
}

function SharingForm(props: { access: Access; me: string; session: string; onDone: () => void }) {
  const queryClient = useQueryClient();
  const people = useProcedure('desk/people', { session: props.session });
  const share = useProcedureMutation('memory/share');
  const [visibility, setVisibility] = useState<Visibility>(props.access.visibility);
  const [chosen, setChosen] = useState<Set<string>>(new Set(props.access.sharedWith.map((p) => p.userId)));
  const others: Person[] = (people.data?.people ?? []).filter((p) => p.userId !== props.me);
  const toggle = (userId: string) =>
    setChosen((now) => {
      const next = new Set(now);
      if (next.has(userId)) next.delete(userId);
      else next.add(userId);
      return next;
    });
  const noOne = visibility === 'shared' && chosen.size === 0;
  const save = () => {
    const input = { path: props.access.path, visibility, ...(visibility === 'shared' ? { people: [...chosen].sort() } : {}) };
    share.mutate(input, {
      onSuccess: (after) => {
        queryClient.setQueryData(['memory/access', { path: props.access.path }], after);
        // Listings and search answer differently for the people it now reaches (or no longer does).
        for (const key of ['memory/access', 'memory/list', 'memory/search', 'memory/audit']) void queryClient.invalidateQueries({ queryKey: [key] });
        props.onDone();
      },
    });
  };
  const options: { value: Visibility; label: string }[] = [
    { value: 'private', label: 'Private (you, and risk)' },
    { value: 'shared', label: 'Shared with the people I pick' },
    { value: 'desk', label: 'Desk-wide (everyone on the desk)' },
  ];
  return (
    <form
      className="record-sharing-form"
      data-testid="record-sharing-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (!noOne) save();
      }}
    >
      <fieldset>
        <legend>Who can read it</legend>
        {options.map((o) => (
          <label key={o.value}>
            <input
              type="radio"
              name="record-sharing-visibility"
              value={o.value}
              checked={visibility === o.value}
              onChange={() => setVisibility(o.value)}
              data-testid={`record-sharing-${o.value}`}
            />{' '}
            {o.label}
          </label>
        ))}
      </fieldset>
      {visibility === 'shared' && (
        <fieldset data-testid="record-sharing-people">
          <legend>People</legend>
          {people.isPending && <p className="muted">Reading who is on the desk…</p>}
          {people.isError && (
            <p className="field-error" role="alert">
              {readableMessage(people.error)}
            </p>
          )}
          {others.map((p) => (
            <label key={p.userId}>
              <input type="checkbox" checked={chosen.has(p.userId)} onChange={() => toggle(p.userId)} data-testid={`record-sharing-person-${p.userId}`} />{' '}
              {p.displayName} <span className="muted">({p.role})</span>
            </label>
          ))}
          {noOne && <p className="hint">Pick at least one person, or choose Private.</p>}
        </fieldset>
      )}
      {share.isError && (
        <p className="field-error" role="alert" data-testid="record-sharing-save-error">
          {readableMessage(share.error)}
        </p>
      )}
      <div className="record-sharing-actions">
        <button type="submit" className="button small primary" disabled={noOne || share.isPending} data-testid="record-sharing-save">
          {share.isPending ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="button small" onClick={props.onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
