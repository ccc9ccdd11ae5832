import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ProcedureOutput } from '../../src-main/api';
import { createClient } from '../api/client';
import { ForgeProvider, makeQueryClient } from '../api/hooks';
import { accessLine, RecordSharingAs, SharingPanel } from './RecordSharing';

/** Rendered as the page first shows it; nothing is called (an HTTP client to nowhere would fail loudly). */
const render = (node: ReactNode) =>
  renderToStaticMarkup(
    <ForgeProvider client={createClient({ baseUrl: 'http://127.0.0.1:9', token: null })} queryClient={makeQueryClient()}>
      {node}
    </ForgeProvider>,
  );

type Access = ProcedureOutput<'memory/access'>;
const access = (over: Partial<Access>): Access => ({
  path: '/memory/views/V-001.md',
  owner: { userId: 'ann', displayName: 'Ann' },
  visibility: 'private',
  sharedWith: [],
  mayChange: true,
  ...over,
});
const SESSION = 'a'.repeat(40);
const noop = () => undefined;

describe('who can read a note, on its page', () => {
  it('says private, shared with whom, or desk-wide, and whose it is', () => {
    // A PM told a note is private when it is desk-wide (or the reverse) would share research by mistake.
    expect(accessLine(access({}), 'ann')).toBe('Yours. Private: only its owner (and risk) can read it.');
    const shared = access({
      visibility: 'shared',
      sharedWith: [
        { userId: 'alice', displayName: 'Alice' },
        { userId: 'bob', displayName: 'Bob' },
      ],
    });
    expect(accessLine(shared, 'alice')).toBe('Ann’s. Shared with Alice and Bob.');
    expect(accessLine(access({ visibility: 'desk' }), 'bob')).toBe('Ann’s. Desk-wide: everyone on the desk can read it.');
    expect(accessLine(access({ owner: null, visibility: 'desk' }), 'bob')).toMatch(/^Forge wrote it for the desk\. Desk-wide/);
  });

  it('offers the change only to the owner, and the form names each choice for a screen reader', () => {
    // A reader offered the control would try to share someone else's note (the server refuses it anyway).
    const owner = render(<SharingPanel access={access({})} me="ann" session={SESSION} editing={false} onEditing={noop} />);
    expect(owner).toContain('data-testid="record-sharing-change"');
    expect(owner).toContain('aria-label="Who can read this"');
    const reader = render(
      <SharingPanel access={access({ visibility: 'desk', mayChange: false })} me="bob" session={SESSION} editing={false} onEditing={noop} />,
    );
    expect(reader).not.toContain('record-sharing-change');
    const form = render(
      <SharingPanel
        access={access({ visibility: 'shared', sharedWith: [{ userId: 'alice', displayName: 'Alice' }] })}
        me="ann"
        session={SESSION}
        editing
        onEditing={noop}
      />,
    );
    expect(form).toContain('<legend>Who can read it</legend>');
    expect(form).toContain('<legend>People</legend>');
    expect(form).toMatch(/type="radio"[^>]*checked=""[^>]*value="shared"|value="shared"[^>]*checked=""/);
  });

  it('shows nothing off a desk (one PM’s own workspace), and the line on a desk once the person is signed in', () => {
    // On a PM's own workbench there is no one to share with: a sharing line would only confuse.
    const me = { session: SESSION, expiresAt: '2026-11-28T23:00:00Z', user: { userId: 'ann', displayName: 'Ann', role: 'analyst' as const, admin: false } };
    const withStatus = (desk: boolean) => {
      const queryClient = makeQueryClient();
      queryClient.setQueryData(['desk/status', {}], { desk, database: desk ? 'postgres://…/desk' : null });
      queryClient.setQueryData(['memory/access', { path: '/memory/views/V-001.md' }], access({ visibility: 'desk' }));
      return renderToStaticMarkup(
        <ForgeProvider client={createClient({ baseUrl: 'http://127.0.0.1:9', token: null })} queryClient={queryClient}>
          <RecordSharingAs path="/memory/views/V-001.md" me={me} />
        </ForgeProvider>,
      );
    };
    expect(withStatus(false)).toBe('');
    expect(withStatus(true)).toContain('Desk-wide: everyone on the desk can read it');
    // An Expression's readers follow its book: no sharing line on it.
    expect(render(<RecordSharingAs path="/memory/expressions/E-001.md" me={me} />)).toBe('');
  });
});
