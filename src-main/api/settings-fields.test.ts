import { describe, expect, it } from 'vitest';
import { procedures } from './procedures';

const patch = procedures['settings/set'].input;
const issuesOf = (settings: Record<string, unknown>) => patch.safeParse({ settings }).error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [];

/**
 * If these fail, Settings saves a zone the scheduler cannot run in (the morning review never
 * fires) or a base URL the model client cannot call, and the PM learns of it only later.
 */
describe('settings/set refuses what the PM cannot mean', () => {
  it('refuses an unknown time zone at the field and keeps real IANA names', () => {
    expect(issuesOf({ timezone: 'Mars/Olympus_Mons' })).toEqual([['settings.timezone', expect.stringMatching(/^not a time zone Forge knows/)]]);
    expect(issuesOf({ timezone: 'Europe/London' })).toEqual([]);
    expect(issuesOf({ timezone: 'UTC' })).toEqual([]);
  });

  it('refuses a base URL that is not http(s), for the model and for every data provider', () => {
    expect(issuesOf({ anthropicBaseUrl: 'ftp://gateway.example.com' })).toEqual([['settings.anthropicBaseUrl', expect.stringContaining('http')]]);
    expect(issuesOf({ anthropicBaseUrl: 'https://gateway.example.com/v1' })).toEqual([]);
    expect(issuesOf({ anthropicBaseUrl: '' })).toEqual([]);
    expect(issuesOf({ providers: { fred: { enabled: true, baseUrl: 'ftp://mirror.example.com' } } }).map((i) => i[0])).toEqual([
      'settings.providers.fred.baseUrl',
    ]);
  });
});
