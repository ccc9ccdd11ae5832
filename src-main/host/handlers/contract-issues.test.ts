import { describe, expect, it } from 'vitest';
import { validateContract } from './contracts-validate';

/**
 * A builder who mistypes a contract is told, in a sentence, which field is wrong and what it may
 * hold. If this fails they see zod's "Invalid option: expected one of "GET"|"POST"|…" instead.
 */
describe('contract structure problems read as sentences', () => {
  it('names the field, its value and the allowed methods for a wrong method', () => {
    const [p] = validateContract('physics.yaml', 'paths:\n  /api/x:\n    method: FETCH\n');
    expect(p).toMatchObject({ path: 'paths./api/x.method', line: 3 });
    expect(p?.message).toBe('paths./api/x.method is "FETCH"; it must be one of GET, POST, PUT, PATCH or DELETE.');
    expect(p?.message).not.toMatch(/Invalid option|expected one of/);
  });

  it('says a required map is missing rather than "expected record, received undefined"', () => {
    const [p] = validateContract('physics.yaml', 'events: {}\n');
    expect(p?.message).toBe('paths is missing; it must be a map of names to entries.');
  });

  it('says what a list field holds when it is given text', () => {
    const text = '{ "modules": { "api": { "path": "src-main/api", "mayImport": "common" } } }';
    const [p] = validateContract('boundaries.json', text);
    expect(p?.message).toBe('modules.api.mayImport is "common"; it must be a list.');
  });

  it("keeps the schema's own words for a badly named key", () => {
    const [p] = validateContract('physics.yaml', 'paths:\n  api/x:\n    method: GET\n');
    expect(p?.message).toBe('The name "api/x" is not allowed here: A path starts with /.');
  });
});
