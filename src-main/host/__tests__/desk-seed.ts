import { DeskPeople, type DeskRole } from '../../desk/people';
import { createDesk } from '../../desk/setup';
import { PostgresConnection } from '../../store/postgres/connection';
import { grantAppRole } from '../desk-app-role';

/** Someone on a test desk. */
export interface TestPerson {
  userId: string;
  displayName: string;
  role: DeskRole;
}

/** Two PMs, pm01 the desk's admin: most desk tests' cast. */
export const TWO_PMS: readonly TestPerson[] = [
  { userId: 'pm01', displayName: 'Pat', role: 'pm' },
  { userId: 'pm02', displayName: 'Quinn', role: 'pm' },
];

/**
 * Makes the empty workspace database at `url` a desk with these people — the first is its admin,
 * everyone signs in with `password` — for the desk tests that then serve it. With `appRole`, it also
 * makes the ordinary role servers connect as (row-level security on) and returns the URL a server
 * uses to connect as it; without, the URL given (the database's owner: no row-level security).
 */
export function seedDesk(url: string, people: readonly TestPerson[], password: string, appRole?: string): { serverUrl: string } {
  const [first, ...others] = people;
  if (!first) throw new Error('a desk needs its first admin');
  const setup = PostgresConnection.open(url);
  try {
    createDesk(setup);
    const desk = new DeskPeople(setup);
    desk.createFirstAdmin({ ...first, password });
    for (const p of others) desk.createUser(first.userId, { ...p, password });
    if (appRole) grantAppRole(setup, appRole, password);
  } finally {
    setup.close();
  }
  return { serverUrl: appRole ? url.replace('//postgres@', `//${appRole}:${password}@`) : url };
}
