import { afterAll, describe, expect, it } from 'vitest';
import { tempCore } from '../testing';

/**
 * The host API's mcp/phase-window (what `forge mcp` in remote mode calls) takes the plan's own phase
 * id as a string or a JSON number, as forge_get_phase_window does. If it failed, a remote IDE asking
 * for phase "1" would be refused as invalid input, and a decimal id would get a raw error instead of
 * a sentence naming the phase.
 */

const app = tempCore();
afterAll(async () => {
  await app.dispose();
});

describe("the host API's mcp/phase-window", () => {
  it('takes the id as a string or a number', async () => {
    const asString = await app.core.invokeUnknown('mcp/phase-window', { phase_number: '1' });
    const asNumber = await app.core.invokeUnknown('mcp/phase-window', { phase_number: 1 });
    expect(asString.ok, JSON.stringify(asString)).toBe(true);
    expect(asNumber).toEqual(asString);
    // Not a phase id at all: refused as bad input at the field, before any lookup.
    const typo = await app.core.invokeUnknown('mcp/phase-window', { phase_number: 'phase one' });
    expect(typo).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  it('answers a decimal id on a whole-number plan with a typed not_found naming the phase', async () => {
    const r = await app.core.invokeUnknown('mcp/phase-window', { phase_number: 3.1 });
    expect(r).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(JSON.stringify(r)).toContain('There is no Phase 3.1. This plan has phases 0 to');
  });
});
