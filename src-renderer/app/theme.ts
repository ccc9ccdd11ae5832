import { useEffect } from 'react';

export type ThemeSetting = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

const CACHE_KEY = 'forge.theme';

export function resolveTheme(setting: ThemeSetting, systemPrefersDark: boolean): Theme {
  if (setting === 'light' || setting === 'dark') return setting;
  return systemPrefersDark ? 'dark' : 'light';
}

function systemDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}

function apply(setting: ThemeSetting) {
  const theme = resolveTheme(setting, systemDark());
  document.documentElement.dataset.theme = theme;
  document.documentElement.style.colorScheme = theme;
}

/** Before React mounts: use the last known setting so the window does not flash the wrong theme. */
export function applyInitialTheme() {
  let cached: ThemeSetting = 'system';
  try {
    const v = localStorage.getItem(CACHE_KEY);
    if (v === 'light' || v === 'dark') cached = v;
  } catch {
    // storage can be unavailable (privacy modes); the system theme is a fine default
  }
  apply(cached);
}

/** Keeps the document's theme in step with the setting and, for `system`, with the OS. */
export function useThemeSetting(setting: ThemeSetting | undefined) {
  useEffect(() => {
    if (!setting) return;
    apply(setting);
    try {
      localStorage.setItem(CACHE_KEY, setting);
    } catch {
      // not fatal: only the first paint of the next launch is affected
    }
    if (setting !== 'system' || typeof matchMedia !== 'function') return;
    const mq = matchMedia('(prefers-color-scheme: dark)');
    const onChange = () => apply('system');
    mq.addEventListener('change', onChange);
    return () => mq.removeEventListener('change', onChange);
  }, [setting]);
}
