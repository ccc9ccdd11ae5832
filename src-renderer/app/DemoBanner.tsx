import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ProcedureInput } from '../../src-main/api';
import type { ForgeClient } from '../api/client';
import { readableMessage } from '../api/errors';
import { useClient, useProcedure } from '../api/hooks';
import { useChat } from '../chat/store';
import './demo-banner.css';

export type DemoSpeed = NonNullable<ProcedureInput<'demo/enter'>['speed']>;

/**
 * Shown on every screen while the app is in the demo workspace, so a PM never mistakes the sample
 * book for their own; "Back to my workspace" closes the demo and deletes its copy.
 */
export function DemoBanner() {
  const client = useClient();
  const queryClient = useQueryClient();
  const status = useProcedure('demo/status', {});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!status.data?.demo) return null;

  const exit = async () => {
    setBusy(true);
    setError(null);
    try {
      await client.call('demo/exit', {});
      // The demo's conversation belongs to the deleted workspace; the next message starts afresh.
      useChat.getState().reset();
      await queryClient.invalidateQueries();
    } catch (e) {
      setError(readableMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="demo-banner" role="status" data-testid="demo-banner">
      <span className="demo-banner-text">
        <strong>DEMO</strong> — sample workspace. Nothing here touches your memory.
        {error && <span className="demo-banner-error"> {error}</span>}
      </span>
      <button type="button" className="button small" onClick={() => void exit()} disabled={busy}>
        Back to my workspace
      </button>
    </div>
  );
}

/** How fast the demo streams; a choice next to the Demo button. */
export function DemoSpeedSelect(props: { value: DemoSpeed; onChange: (speed: DemoSpeed) => void; disabled?: boolean }) {
  return (
    <select
      className="demo-speed"
      aria-label="Demo speed"
      data-testid="demo-speed"
      value={props.value}
      disabled={props.disabled}
      onChange={(e) => props.onChange(e.target.value as DemoSpeed)}
    >
      <option value="slow">Slow</option>
      <option value="normal">Normal pace</option>
      <option value="fast">Fast</option>
    </select>
  );
}

/**
 * Switches the app into a fresh demo workspace and starts the scripted run there; the chat shows
 * it from a clean slate (the PM's conversation stays in their workspace's sessions).
 */
export async function enterDemo(client: ForgeClient, speed?: DemoSpeed) {
  const r = await client.call('demo/enter', speed ? { speed } : {});
  // The conversation was cleared by app/workspace-changed; the run's events may already be in it.
  const chat = useChat.getState();
  chat.start({ runId: r.runId, sessionId: r.sessionId, prompt: 'Offline demo: morning check on the sample workspace', demo: true });
  return r;
}
