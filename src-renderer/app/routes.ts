/**
 * Hash routes (`#/views/V-001`) so a reload, or Electron's `loadFile`, keeps the PM on the same
 * screen without a server-side router.
 */

export const screens = [
  'home',
  'chat',
  'views',
  'expressions',
  'tasks',
  'proposals',
  'calibration',
  'schedule',
  'builds',
  'contracts',
  'skills',
  'portfolio',
  'data',
  'mcp',
  'desk',
  'settings',
] as const;
export type Screen = (typeof screens)[number];

/** The app opens on Home: today at a glance, every item one click from its screen. */
export const defaultScreen: Screen = 'home';

export interface Route {
  screen: Screen;
  /** What follows the screen, decoded: e.g. `V-001` in `#/views/V-001`. Empty when none. */
  rest: string[];
}

export function isScreen(value: string): value is Screen {
  return (screens as readonly string[]).includes(value);
}

export function parseHash(hash: string): Route {
  const trimmed = hash.replace(/^#\/?/, '').split('?')[0] ?? '';
  const parts = trimmed.split('/').filter((p) => p.length > 0);
  const head = (parts[0] ?? '').toLowerCase();
  if (!isScreen(head)) return { screen: defaultScreen, rest: [] };
  const rest: string[] = [];
  for (const p of parts.slice(1)) {
    try {
      rest.push(decodeURIComponent(p));
    } catch {
      // A hand-edited hash with a stray '%' should land on the screen, not crash it.
      return { screen: head, rest: [] };
    }
  }
  return { screen: head, rest };
}

export function formatHash(route: { screen: Screen; rest?: string[] }): string {
  const rest = (route.rest ?? []).map((p) => `/${encodeURIComponent(p)}`).join('');
  return `#/${route.screen}${rest}`;
}
