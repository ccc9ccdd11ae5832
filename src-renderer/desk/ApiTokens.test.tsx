import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { IssuedToken, TokenList } from './ApiTokens';
import { checkNewToken, type DeskToken, tokenState } from './tokens';

const NOW = Date.parse('2026-11-28T12:00:00Z');

const token = (over: Partial<DeskToken>): DeskToken => ({
  tokenId: 7,
  kind: 'api',
  label: 'laptop IDE',
  createdAt: '2026-11-01 09:00:00.123+00',
  expiresAt: '2027-01-30 09:00:00.123+00',
  lastUsedAt: null,
  revokedAt: null,
  ...over,
});

describe('the Desk screen’s "Your API tokens" card', () => {
  it('lists API tokens only, offers Revoke on a live one only, and says revoked or expired', () => {
    // Revoke offered on a dead token would look like it still works; a session listed here would invite revoking one's own sign-in.
    const html = renderToStaticMarkup(
      <TokenList
        now={NOW}
        busy={false}
        onRevoke={() => undefined}
        tokens={[
          token({ tokenId: 9, kind: 'session', label: null }),
          token({ tokenId: 8, label: 'old laptop', revokedAt: '2026-11-20 10:00:00+00' }),
          token({ tokenId: 6, label: 'build box', expiresAt: '2026-11-27 10:00:00+00' }),
          token({ tokenId: 7, lastUsedAt: '2026-11-28 11:59:00+00' }),
        ]}
      />,
    );
    expect(html).not.toContain('desk-token-9');
    expect(html).toContain('data-testid="desk-token-revoke-7"');
    expect(html).not.toContain('desk-token-revoke-8');
    expect(html).not.toContain('desk-token-revoke-6');
    expect(html).toContain('revoked');
    expect(html).toContain('expired');
    expect(html).toContain('last used 2026-11-28 11:59');
    // The live one comes first.
    expect(html.indexOf('desk-token-7')).toBeLessThan(html.indexOf('desk-token-8'));
  });

  it('shows a new token once with Copy and the warning that it is not shown again', () => {
    const html = renderToStaticMarkup(<IssuedToken token={'T'.repeat(43)} label="laptop IDE" expiresAt="2027-02-26 12:00:00+00" onDone={() => undefined} />);
    expect(html).toContain('T'.repeat(43));
    expect(html).toContain('it is not shown again');
    expect(html).toContain('data-testid="desk-token-copy"');
  });

  it('checks the New token fields as the server does, saying what is wrong', () => {
    expect(checkNewToken('  laptop IDE ', '30')).toEqual({ ok: true, label: 'laptop IDE', expiresInDays: 30 });
    for (const [label, days] of [
      ['', '30'],
      ['x'.repeat(121), '30'],
      ['tab\there', '30'],
      ['ok', '0'],
      ['ok', '367'],
      ['ok', '1.5'],
      ['ok', 'ten'],
    ]) {
      expect(checkNewToken(label, days).ok, `${label} ${days}`).toBe(false);
    }
    expect(tokenState(token({ expiresAt: '2026-11-28 11:00:00+00' }), NOW)).toBe('expired');
    expect(tokenState(token({}), NOW)).toBe('active');
  });
});
