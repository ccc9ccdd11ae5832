import { useCallback, useSyncExternalStore } from 'react';
import { formatHash, parseHash, type Route, type Screen } from './routes';
import { holdNavigation } from './useUnsavedGuard';

function subscribe(cb: () => void) {
  const onChange = (e: HashChangeEvent) => {
    // Leaving a screen with unsaved edits waits for the PM's answer (the old address is put back).
    if (holdNavigation(e.oldURL, e.newURL)) return;
    cb();
  };
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

const getHash = () => window.location.hash;

export function useRoute(): [Route, (screen: Screen, rest?: string[]) => void] {
  const hash = useSyncExternalStore(subscribe, getHash);
  const route = parseHash(hash);
  const go = useCallback((screen: Screen, rest?: string[]) => {
    const next = formatHash({ screen, rest });
    if (window.location.hash !== next) window.location.hash = next;
  }, []);
  return [route, go];
}
