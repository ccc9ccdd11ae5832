import { describe, expect, it } from 'vitest';
import { defaultScreen, formatHash, parseHash, screens } from './routes';
import { screenInfo } from './screens';

describe('hash routing', () => {
  it('opens the screen named in the hash, so a reload stays on it', () => {
    expect(parseHash('#/settings')).toEqual({ screen: 'settings', rest: [] });
    expect(parseHash('#/views/V-001.md')).toEqual({ screen: 'views', rest: ['V-001.md'] });
    expect(parseHash('#/MCP')).toEqual({ screen: 'mcp', rest: [] });
  });

  it('opens on Home when the address names no screen, and falls back to it for an unknown one', () => {
    expect(defaultScreen).toBe('home');
    expect(screens[0]).toBe('home');
    expect(parseHash('')).toEqual({ screen: defaultScreen, rest: [] });
    expect(parseHash('#/nonsense/x')).toEqual({ screen: defaultScreen, rest: [] });
  });

  it('round-trips record names with characters that need escaping', () => {
    const route = { screen: 'views' as const, rest: ['V 1#?.md'] };
    expect(parseHash(formatHash(route))).toEqual(route);
  });

  it('does not crash on a malformed escape typed into the address bar', () => {
    expect(parseHash('#/views/%E0%A4%A')).toEqual({ screen: 'views', rest: [] });
  });

  it('has a label and a description for every screen in the sidebar', () => {
    expect(screens).toHaveLength(16);
    for (const s of screens) {
      expect(screenInfo[s].label.length).toBeGreaterThan(0);
      expect(screenInfo[s].built || screenInfo[s].will.length > 0).toBe(true);
    }
  });
});
