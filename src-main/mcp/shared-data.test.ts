import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderSettings } from '../api/providers';
import { connect, fixture, textOf, type Fixture } from './__tests__/fixtures';
import { MAX_ANSWER_CHARS, registrySharing, type SharableRegistry } from './shared-data';

/**
 * The share switch and the answer's shape, over a real MCP client. The registry here is a small
 * stand-in with the host registry's surface (the MCP package may not import providers); the host's
 * test (host/__tests__/mcp-fetch.test.ts) runs the same tool against the real registry and vendors.
 */

const KEY = 'fred-key-0123456789abcdef';

class TinyRegistry implements SharableRegistry {
  constructor(private readonly bodies: Record<string, string>) {}
  get(name: string) {
    return this.bodies[name];
  }
  enabled(name: string) {
    return name !== 'market';
  }
  names() {
    return Object.keys(this.bodies).filter((n) => this.enabled(n));
  }
  catalogue() {
    return this.names().map((n) => `${n}: the ${n} source {q}`);
  }
  async fetch(name: string) {
    const body = this.bodies[name]!;
    if (body === 'throw') throw Object.assign(new Error(`vendor said: bad key ${KEY}`), { kind: 'bad_response' });
    return { label: `${name} result`, asOf: '2024-10-01', source: `${name} vendor`, formatFull: () => body };
  }
}

let f: Fixture;
beforeAll(() => {
  f = fixture();
});
afterAll(() => f.dispose());

describe('registrySharing (forge_fetch)', () => {
  it('lists only shared, switched-on sources, cuts a huge answer, and scrubs a key a vendor echoes', async () => {
    const settings: Record<string, Partial<ProviderSettings>> = {
      economic: { shareWithMcp: true },
      web: { shareWithMcp: true },
      market: { shareWithMcp: true },
      news: {},
    };
    const registry = new TinyRegistry({ economic: 'throw', web: `<p>${'x'.repeat(MAX_ANSWER_CHARS + 500)}</p>`, market: 'm', news: 'n' });
    const data = registrySharing({ registry, settings: () => settings, secret: (n) => (n === 'fredApiKey' ? KEY : undefined) });
    const c = await connect(f, { sharedData: () => data });
    try {
      const list = textOf(await c.client.callTool({ name: 'forge_fetch', arguments: {} }));
      // market is shared but switched off on the Data screen: an IDE is not offered it.
      expect(list).toContain('economic: the economic source {q}\nweb: the web source {q}');
      expect(list).not.toMatch(/^market:/m);
      expect(list).toMatch(/Not shared: news\./);

      const big = await c.client.callTool({ name: 'forge_fetch', arguments: { source: 'web', params: {} } });
      expect(big.isError).toBeFalsy();
      expect(textOf(big)).toContain(`… cut at ${MAX_ANSWER_CHARS.toLocaleString('en-US')} characters.`);
      expect(textOf(big).length).toBeLessThan(MAX_ANSWER_CHARS + 1000);

      const echoed = await c.client.callTool({ name: 'forge_fetch', arguments: { source: 'economic', params: {} } });
      expect(echoed.isError).toBe(true);
      expect(textOf(echoed)).toContain('[FETCH FAILED | economic | bad_response] vendor said: bad key [key withheld]');
      expect(textOf(echoed)).not.toContain(KEY);

      const unknown = await c.client.callTool({ name: 'forge_fetch', arguments: { source: 'fx', params: {} } });
      expect(textOf(unknown)).toBe('Unknown source "fx". Shared with attached IDEs: economic, web.');

      const badDate = await c.client.callTool({ name: 'forge_fetch', arguments: { source: 'web', as_of: '10/01/2024' } });
      expect(badDate.isError).toBe(true);
      expect(textOf(badDate)).toMatch(/as_of/);
    } finally {
      await c.close();
    }
  });
});
