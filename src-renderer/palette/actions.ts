import { type ForgeClient, readableMessage } from '../api';
import { enterDemo } from '../app/DemoBanner';
import { useNotices } from '../app/Notices';
import type { Screen } from '../app/routes';
import { runningTurn, useChat } from '../chat/store';
import { sortProposals } from '../proposals/model';
import type { ActionId } from './commands';

type Go = (screen: Screen, rest?: string[]) => void;

/** Focuses the first element matching `selector` once the screen that holds it has rendered (gives up after ~2 s). */
export function focusWhenReady(selector: string, tries = 120): void {
  const el = document.querySelector<HTMLElement>(selector);
  if (el) {
    el.focus();
    return;
  }
  if (tries > 0) requestAnimationFrame(() => focusWhenReady(selector, tries - 1));
}

const notify = (level: 'info' | 'error', message: string) => useNotices.getState().push(level, message);

/**
 * Runs one of the palette's actions with the same API calls and stores the screens use, so an
 * action from the palette and the button on its screen do the same thing.
 */
export async function runAction(action: ActionId, deps: { client: ForgeClient; go: Go }): Promise<void> {
  const { client, go } = deps;
  try {
    switch (action) {
      case 'new-chat': {
        go('chat');
        const chat = useChat.getState();
        // A running answer is not thrown away: the PM stops it first, as on the Chat screen.
        if (runningTurn(chat)) notify('info', 'The analyst is still answering; stop it on the Chat screen before starting a new chat.');
        else chat.reset();
        focusWhenReady('.chat-screen textarea');
        return;
      }
      case 'run-demo': {
        go('chat');
        if (runningTurn(useChat.getState())) {
          notify('info', 'A run is already in progress on the Chat screen.');
          return;
        }
        // Into the demo's own sample workspace (every screen follows, under the DEMO banner).
        await enterDemo(client);
        return;
      }
      case 'search-memory':
        go('views');
        focusWhenReady('[data-testid="memory-search"]');
        return;
      case 'next-expression': {
        const list = await client.call('memory/list', { path: '/memory/expressions/', query: 'status:proposed', limit: 1 });
        const first = list.entries.find((e) => e.id);
        go('expressions', first ? [`${first.id}.md`] : []);
        if (!first) notify('info', 'No Expression is waiting for your approval.');
        return;
      }
      case 'next-proposal': {
        const list = await client.call('proposals/list', { status: 'pending' });
        const first = sortProposals(list.proposals)[0];
        go('proposals', first ? [first.id] : []);
        if (!first) notify('info', 'No skill-edit proposal is pending.');
        return;
      }
      case 'start-build':
        // With nothing selected the Builds screen shows the start form.
        go('builds', []);
        focusWhenReady('[data-testid="build-workdir"]');
        return;
    }
  } catch (e) {
    notify('error', readableMessage(e));
  }
}
