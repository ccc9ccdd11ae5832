import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { EventMessage, ProcedureOutput } from '../src-main/api';
import { bridgeOf, windowClient } from './api/client';
import { connectBridgeEvents, connectSocketEvents, eventsUrl, useReindexProgress } from './api/events';
import { ForgeProvider, makeQueryClient, procedureKey } from './api/hooks';
import { App } from './app/App';
// Event handlers come from the features' live/store files, not their index: an index also exports
// the screen, which would pull it out of its lazy chunk into the first load.
import { chatEvents, handleChatEvent, useChat } from './chat/store';
import { handleTaskEvent } from './tasks/live';
import { buildEventNames, handleBuildChanged, handleBuildLog, handleCommandConsent } from './builds/live';
import { handleProposalsChanged, proposalEventNames } from './proposals/live';
import { handleScheduleChanged, scheduleEventNames } from './schedule/live';
import { deskEventNames, handleDeskChanged } from './desk/live';
import { useDeskSession } from './desk/session';
import { handleModelProgress, modelEventNames } from './settings/model-live';
import { refreshAwaitingApproval } from './home';
import { useNotices } from './app/Notices';
import { toast } from './app/toast-store';
import { createEventToasts } from './app/toast-events';
import { applyInitialTheme } from './app/theme';
import './styles/app.css';

applyInitialTheme();

const client = windowClient();
const queryClient = makeQueryClient();

const eventToast = createEventToasts();

function onEvent(message: EventMessage) {
  // Finished builds and Expressions awaiting approval also show as a toast, whatever screen is open.
  const note = eventToast(message);
  if (note) toast(note.level, note.message, { href: note.href });
  switch (message.event) {
    case 'settings/changed':
      queryClient.setQueryData<ProcedureOutput<'settings/get'>>(procedureKey('settings/get', {}), message.payload as ProcedureOutput<'settings/get'>);
      break;
    case 'app/notice': {
      const p = message.payload as { level: 'info' | 'warning' | 'error'; message: string };
      useNotices.getState().push(p.level, p.message);
      break;
    }
    case 'search/reindex-progress': {
      const p = message.payload as { done: number; total: number; embedder: string };
      useReindexProgress.setState(p, true);
      if (p.done >= p.total) void queryClient.invalidateQueries({ queryKey: ['search/status'] });
      break;
    }
    case 'providers/data-folder-changed':
      for (const key of ['providers/data-folder', 'providers/list']) void queryClient.invalidateQueries({ queryKey: [key] });
      break;
    case 'skills/changed':
      void queryClient.invalidateQueries({ queryKey: ['skills/list'] });
      void queryClient.invalidateQueries({ queryKey: ['skills/read'] });
      break;
    case 'portfolio/changed':
      // The book moved (an approval, a close, an import, a proposal): every figure is recomputed by the core.
      for (const key of ['portfolio/book', 'guardrails/limits']) void queryClient.invalidateQueries({ queryKey: [key] });
      refreshAwaitingApproval(queryClient);
      break;
    case 'tasks/changed':
      handleTaskEvent(queryClient, message.payload as ProcedureOutput<'tasks/get'>['task']);
      break;
    case 'builds/changed':
      handleBuildChanged(queryClient, message.payload as ProcedureOutput<'builds/get'>['build']);
      break;
    case 'builds/log':
      handleBuildLog(queryClient, message.payload as { buildId: string; entry: ProcedureOutput<'builds/get'>['log'][number] });
      break;
    case 'builds/command-consent':
      handleCommandConsent(queryClient, message.payload as { buildId: string; request: ProcedureOutput<'builds/get'>['commands']['consent'] & object });
      break;
    case 'proposals/changed':
      handleProposalsChanged(queryClient, message.payload as { pendingCount: number });
      break;
    case 'schedule/changed':
      handleScheduleChanged(queryClient, message.payload as ProcedureOutput<'schedule/list'>['jobs'][number]);
      break;
    case 'desk/changed':
      handleDeskChanged(queryClient);
      break;
    case 'search/model-progress':
      handleModelProgress(message.payload as { file: string; done: number; total: number });
      break;
    case 'app/workspace-changed':
      // Into or out of the demo workspace: everything on screen belonged to the other workspace.
      // The conversation is cleared here, when the switch happens and before the demo's first event,
      // never after demo/enter answers (by then a fast demo has already streamed its tool calls).
      useChat.getState().reset();
      void queryClient.invalidateQueries();
      break;
    default:
      if (String(message.event).startsWith('agent/')) {
        handleChatEvent(message);
        // The analyst may have written memory: what the Views and Expressions screens show is stale.
        const wrote = message.event === 'agent/done' || (message.event === 'agent/tool-result' && (message.payload as { name?: string }).name === 'write');
        if (wrote) refreshMemory();
      }
  }
}

function refreshMemory() {
  for (const key of ['memory/list', 'memory/read', 'memory/history', 'memory/audit', 'memory/search', 'search/status']) {
    void queryClient.invalidateQueries({ queryKey: [key] });
  }
}

const bridge = bridgeOf(globalThis as { forge?: unknown });
if (bridge)
  connectBridgeEvents(bridge, onEvent, [
    ...chatEvents,
    ...buildEventNames,
    ...proposalEventNames,
    ...scheduleEventNames,
    ...deskEventNames,
    ...modelEventNames,
    'app/workspace-changed',
    'providers/data-folder-changed',
  ]);
else {
  // On a desk the socket hears events only once it has told the server who is signed in (and again at each change).
  const events = connectSocketEvents(
    eventsUrl(window.location, client.token),
    onEvent,
    () => void queryClient.invalidateQueries(),
    () => useDeskSession.getState().current?.session ?? null,
  );
  useDeskSession.subscribe((now, before) => {
    if (now.current?.session !== before.current?.session) events.hello?.();
  });
}

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
createRoot(root).render(
  <StrictMode>
    <ForgeProvider client={client} queryClient={queryClient}>
      <App />
    </ForgeProvider>
  </StrictMode>,
);
