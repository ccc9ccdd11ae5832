import { useCallback, useSyncExternalStore } from 'react';
import { formatHash, parseHash, type Route, type Screen } from './routes';

function subscribe(cb: () => void) {
  window.addEventListener('hashchange', cb);
  return () => window.removeEventListener('hashchange', cb);
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
