import { describe, expect, it } from 'vitest';
import { events } from './events';
import { procedures } from './procedures';

describe('API contract', () => {
  it('names every procedure area/verb, so transports can route it (POST /api/<area>/<verb>, forge:invoke:<name>)', () => {
    for (const name of Object.keys(procedures)) expect(name).toMatch(/^[a-z]+\/[a-z][a-z-]*$/);
    for (const name of Object.keys(events)) expect(name).toMatch(/^[a-z]+\/[a-z][a-z-]*$/);
  });

  it('gives every procedure an input and an output schema that parse', () => {
    for (const [name, spec] of Object.entries(procedures)) {
      expect(typeof spec.input.safeParse, name).toBe('function');
      expect(typeof spec.output.safeParse, name).toBe('function');
    }
  });

  it('keeps secrets out of the settings the renderer can read', () => {
    const keys = Object.keys(procedures['settings/get'].output.shape.settings.shape);
    expect(keys.some((k) => /key|secret|token/i.test(k))).toBe(false);
  });
});
