import { describe, expect, it } from 'vitest';
import { countContextTokens, countTokens } from './tokens';

describe('offline token counting', () => {
  it('counts English prose near 3.5–4.5 characters per token, as Claude does', () => {
    const prose =
      'The Federal Reserve is likely to cut rates twice before the end of next year, according to our base case. ' +
      'Growth is slowing while inflation eases, so the curve should steepen as front-end yields fall faster than the long end.';
    const ratio = prose.length / countTokens(prose);
    expect(ratio).toBeGreaterThan(3.3);
    expect(ratio).toBeLessThan(4.6);
  });

  it('counts JSON and numbers denser than prose, so the meter does not under-report tool payloads', () => {
    const json = JSON.stringify({ id: 'E-014', notional: 25000000, dv01: 12500.5, legs: [{ tenor: '2y', side: 'receive' }] });
    expect(json.length / countTokens(json)).toBeLessThan(3.2);
    expect(countTokens('2025')).toBe(2);
    expect(countTokens('')).toBe(0);
  });

  it('splits the context by part for the Chat meter, and the parts add up', () => {
    const c = countContextTokens({
      system: [{ text: 'You are the analyst.', stable: true }],
      tools: [{ name: 'read', description: 'Read a file.', inputSchema: { type: 'object' } }],
      messages: [{ role: 'user', content: 'Hello there' }],
    });
    expect(c.system).toBe(countTokens('You are the analyst.'));
    expect(c.tools).toBeGreaterThan(40);
    expect(c.conversation).toBeGreaterThan(countTokens('Hello there'));
    expect(c.total).toBe(c.system + c.tools + c.conversation);
  });
});
