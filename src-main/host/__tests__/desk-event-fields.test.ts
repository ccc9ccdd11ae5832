import { describe, expect, it } from 'vitest';
import { events } from '../../api/events';
import { idsOnly } from '../desk';

/**
 * desk/changed reaches every signed-in page of a desk, so it may carry ids and kinds only. If these
 * failed, a publisher that one day adds a record's title or text to a desk event would show a PM's
 * private note to every colleague's page.
 */
describe('a desk event as every page hears it', () => {
  it("passes on ids, kinds and who, and drops a record's title or text", () => {
    const heard = idsOnly({ id: 'E-004', owner: 'pm01', by: 'pm01', title: 'Long JGB 10y: the BoJ blinks', body: 'private reasoning' });
    expect(heard).toEqual({ id: 'E-004', owner: 'pm01', by: 'pm01' });
  });

  it('drops a field that is not text, or text too long to be an id', () => {
    expect(idsOnly({ id: { nested: 'x' }, book: 'x'.repeat(301), pm: 'pm02' })).toEqual({ pm: 'pm02' });
  });

  it("keeps the listener's reason for reconnecting, and the event contract accepts what it passes on", () => {
    const heard = { kind: 'desk.reconnecting', ...idsOnly({ reason: 'the connection was lost (ECONNREFUSED)' }) };
    expect(events['desk/changed'].parse(heard)).toEqual(heard);
    // The contract itself strips an unknown field (zod's default), as a second guard.
    expect(events['desk/changed'].parse({ kind: 'record.visibility', id: 'V-001', title: 'secret' })).toEqual({ kind: 'record.visibility', id: 'V-001' });
  });
});
