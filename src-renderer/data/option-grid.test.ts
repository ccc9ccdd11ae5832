import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { ProcedureInput, ProcedureOutput } from '../../src-main/api';
import type { ForgeClient } from '../api/client';
import { optionRequest, sampleOption, spotGrid, valueGridQuery } from './analytics-form';

/**
 * The option chart on the Data screen draws "value today" across 25 spot levels. It must ask the
 * core once for the whole grid (`spots`), not once per level: if this failed, every "Price it"
 * would fire 25 requests (26 with the price itself), slowing the screen and flooding the local
 * server's log, and the line could be drawn from answers that arrived out of order.
 */

type OptionIn = ProcedureInput<'analytics/option'>;
type OptionOut = ProcedureOutput<'analytics/option'>;

/** A client that records every request and answers with a recognisable grid (value = 2·spot). */
function countingClient() {
  const calls: { name: string; input: OptionIn }[] = [];
  const client: Pick<ForgeClient, 'call'> = {
    call: (async (name: string, input: OptionIn) => {
      calls.push({ name, input });
      const answer: OptionOut = {
        model: input.model ?? 'bsm',
        type: input.type,
        price: 2 * input.underlying,
        vol: input.vol ?? 0.2,
        impliedVol: null,
        greeks: { delta: 0.5, gamma: 0.01, vega: 0.4, theta: -1, rho: 0.5, dividendRho: -0.5 },
        d1: 0,
        d2: 0,
        forward: input.underlying,
        bounds: { lower: 0, upper: input.underlying },
        grid: input.spots?.map((s) => ({ underlying: s, price: 2 * s, delta: 0.5, gamma: 0.01 })) ?? null,
      };
      return answer;
    }) as ForgeClient['call'],
  };
  return { client, calls };
}

describe("the option chart's value-today line", () => {
  it('is fetched in one analytics/option request carrying every spot level, at the solved volatility', async () => {
    const req = optionRequest({ ...sampleOption, solve: 'iv', price: '10.4506' });
    if (!req.ok) throw new Error('sample form should be valid');
    const { client, calls } = countingClient();
    const points = await new QueryClient().fetchQuery(valueGridQuery(client, req.value, 0.2));
    expect(calls).toHaveLength(1);
    const sent = calls[0]!;
    expect(sent.name).toBe('analytics/option');
    const spots = spotGrid(100, 100);
    expect(spots).toHaveLength(25);
    expect(sent.input.spots).toEqual(spots);
    // The grid is priced at the volatility the first answer found, never re-solved from the price.
    expect(sent.input.vol).toBe(0.2);
    expect(sent.input.price).toBeUndefined();
    expect(points).toEqual(spots.map((s) => ({ x: s, y: 2 * s })));
  });

  it('is asked for again only when the market inputs change', async () => {
    const req = optionRequest(sampleOption);
    if (!req.ok) throw new Error('sample form should be valid');
    const { client, calls } = countingClient();
    const cache = new QueryClient();
    await cache.fetchQuery(valueGridQuery(client, req.value, 0.2));
    await cache.fetchQuery(valueGridQuery(client, req.value, 0.2));
    expect(calls).toHaveLength(1);
    await cache.fetchQuery(valueGridQuery(client, { ...req.value, strike: 110 }, 0.2));
    expect(calls).toHaveLength(2);
  });
});
