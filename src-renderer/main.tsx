import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { EventMessage, ProcedureOutput } from '../src-main/api';
import { bridgeOf, windowClient } from './api/client';
import { connectBridgeEvents, connectSocketEvents, eventsUrl } from './api/events';
import { ForgeProvider, makeQueryClient, procedureKey } from './api/hooks';
import { App } from './app/App';
import { useNotices } from './app/Notices';
import { applyInitialTheme } from './app/theme';
import './styles/app.css';

applyInitialTheme();

const client = windowClient();
const queryClient = makeQueryClient();

function onEvent(message: EventMessage) {
  switch (message.event) {
    case 'settings/changed':
      queryClient.setQueryData<ProcedureOutput<'settings/get'>>(
        procedureKey('settings/get', {}),
        message.payload as ProcedureOutput<'settings/get'>,
      );
      break;
    case 'app/notice': {
      const p = message.payload as { level: 'info' | 'warning' | 'error'; message: string };
      useNotices.getState().push(p.level, p.message);
      break;
    }
    default:
      // Memory writes (by the analyst, the scheduler…) make cached listings stale.
      if (String(message.event).startsWith('memory/')) void queryClient.invalidateQueries({ queryKey: ['memory/list'] });
  }
}

const bridge = bridgeOf(globalThis as { forge?: unknown });
if (bridge) connectBridgeEvents(bridge, onEvent);
else connectSocketEvents(eventsUrl(window.location, client.token), onEvent, () => void queryClient.invalidateQueries());

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
createRoot(root).render(
  <StrictMode>
    <ForgeProvider client={client} queryClient={queryClient}>
      <App />
    </ForgeProvider>
  </StrictMode>,
);
