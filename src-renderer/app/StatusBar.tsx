import { useEffect, useState } from 'react';
import { useProcedure, useClient } from '../api/hooks';
import { useConnection } from '../api/events';
import { readableMessage } from '../api/errors';

const HEALTH_REFRESH_MS = 15_000;

function useNow(intervalMs: number, active: boolean) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(t);
  }, [intervalMs, active]);
  return now;
}

export function StatusBar() {
  const client = useClient();
  const info = useProcedure('app/info', {}, { staleTime: Infinity });
  const health = useProcedure('app/health', {}, { refetchInterval: HEALTH_REFRESH_MS, retry: false });
  const conn = useConnection();
  const now = useNow(1000, conn.state === 'disconnected');

  const mode = info.data?.mode ?? (client.transport === 'ipc' ? 'electron' : 'headless');
  const modeLabel = mode === 'electron' ? 'Desktop (Electron)' : mode === 'headless' ? 'Headless (browser)' : 'Test host';

  let healthState: 'ok' | 'degraded' | 'down' | 'pending' = 'pending';
  let healthText = 'Checking health…';
  let healthTitle = '';
  if (health.data) {
    const failing = health.data.checks.filter((c) => !c.ok);
    healthState = health.data.status === 'ok' ? 'ok' : 'degraded';
    healthText = healthState === 'ok' ? 'Health OK' : `Health degraded: ${failing.map((c) => c.name).join(', ')}`;
    healthTitle = health.data.checks.map((c) => `${c.ok ? '✓' : '✗'} ${c.name}: ${c.detail}`).join('\n');
  }
  if (health.isError && !health.isFetching) {
    healthState = 'down';
    healthText = 'Health unknown: Forge unreachable';
    healthTitle = readableMessage(health.error);
  }

  const eventsText =
    conn.state === 'connected'
      ? 'Live'
      : conn.state === 'connecting'
        ? 'Connecting…'
        : `Disconnected ${Math.max(0, Math.round((now - conn.since) / 1000))} s — reconnecting`;

  return (
    <footer className="status-bar" data-testid="status-bar" role="contentinfo" aria-label="Status">
      <span className="status-item" data-testid="status-mode" data-mode={mode} title={`Transport: ${client.transport.toUpperCase()}`}>
        {modeLabel}
      </span>
      <span className="status-item" data-testid="status-version">
        {info.data ? `Forge ${info.data.version}` : 'Forge'}
      </span>
      <span className="status-spacer" />
      <span className="status-item" data-testid="status-health" data-state={healthState} title={healthTitle} role="status" aria-label={healthText}>
        <span className={`dot dot-${healthState}`} aria-hidden="true" />
        {healthText}
      </span>
      <span
        className="status-item"
        data-testid="status-events"
        data-state={conn.state}
        role="status"
        aria-label={`Live updates: ${eventsText}`}
        title="Live updates from Forge (task progress, settings changes)"
      >
        <span className={`dot dot-${conn.state === 'connected' ? 'ok' : conn.state === 'connecting' ? 'pending' : 'down'}`} aria-hidden="true" />
        {eventsText}
      </span>
    </footer>
  );
}
