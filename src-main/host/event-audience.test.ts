import { describe, expect, it } from 'vitest';
import { eventNames } from '../api/events';
import { audienceOf, EVENT_REACH, heardBy } from './event-audience';

/**
 * The table that decides who hears each event on a desk. If it failed, a colleague's page would
 * stream another person's analyst chat (personal treated as desk-wide), or a risk manager would
 * miss an approval (desk-wide treated as personal).
 */
describe('who hears an event on a desk', () => {
  it("sends a person's chat, tasks and own progress to that person only", () => {
    for (const e of ['agent/text', 'agent/tool-result', 'agent/done', 'tasks/changed', 'search/reindex-progress'] as const) {
      const a = audienceOf(e, 'pm01');
      expect([e, heardBy(a, 'pm01'), heardBy(a, 'pm02')]).toEqual([e, true, false]);
    }
  });

  it('sends the desk-wide changes to everyone, whoever emitted them', () => {
    for (const e of ['desk/changed', 'portfolio/changed', 'settings/changed', 'schedule/changed', 'app/notice'] as const) {
      expect([e, heardBy(audienceOf(e, 'pm01'), 'pm02')]).toEqual([e, true]);
    }
  });

  it("sends the server's own work (no person) to everyone, even a personal kind of event", () => {
    expect(heardBy(audienceOf('agent/text', undefined), 'pm02')).toBe(true);
    expect(heardBy(audienceOf('tasks/changed', undefined), 'pm02')).toBe(true);
  });

  it('keeps an event nobody classified to its own person (fail closed)', () => {
    const a = audienceOf('area/new-event', 'pm01');
    expect([heardBy(a, 'pm01'), heardBy(a, 'pm02')]).toEqual([true, false]);
    // A name like an Object prototype key is not a table entry either.
    expect(heardBy(audienceOf('constructor', 'pm01'), 'pm02')).toBe(false);
  });

  it('classifies only events the API declares (a misspelt row would leave the real event fail-closed)', () => {
    expect(Object.keys(EVENT_REACH).filter((e) => !(eventNames as string[]).includes(e))).toEqual([]);
  });
});
