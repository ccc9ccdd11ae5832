import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useClient, useProcedure } from '../api/hooks';
import { readableMessage } from '../api/errors';
import { runningTurn, useChat, type ChatTurn, type ContextMeter, type SessionUsage } from './store';
import { ToolCall } from './ToolCall';
import { inputLimits, TextArea } from '../app/TextField';
import { type DemoSpeed, DemoSpeedSelect, enterDemo } from '../app/DemoBanner';
import './chat.css';

/** Claude's context window, for the meter's scale. */
const CONTEXT_WINDOW = 200_000;

const fmt = (n: number) => (n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : n.toLocaleString());

/**
 * Chat with the analyst: the answer streams in, each tool call is shown (collapsible, with its
 * result), a meter shows the context in use by part, with tokens, cache-read share and cost for
 * the session, and Stop cancels the run. Without an API key it says how to add one and offers the
 * offline demo.
 */
export function ChatScreen() {
  const client = useClient();
  const status = useProcedure('agent/status', {}, { staleTime: 2_000 });
  const chat = useChat();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [demoSpeed, setDemoSpeed] = useState<DemoSpeed>('normal');
  /** The PM asked for a new conversation: the next message starts one (the current is archived). */
  const [fresh, setFresh] = useState(false);
  const bottom = useRef<HTMLDivElement>(null);
  const running = runningTurn(chat);

  // biome-ignore lint/correctness/useExhaustiveDependencies: chat.turns is the trigger, not an input: follow the conversation as turns arrive.
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: 'end' });
  }, [chat.turns]);

  const send = async () => {
    const message = text.trim();
    if (!message || running || busy || message.length > inputLimits.chatMessage) return;
    setError(null);
    setBusy(true);
    const call = (sessionId: string | null) =>
      client.call('agent/send', { message, ...(sessionId ? { sessionId } : {}), ...(fresh ? { newSession: true } : {}) });
    try {
      let r: Awaited<ReturnType<typeof call>>;
      try {
        r = await call(chat.sessionId);
      } catch (e) {
        // The conversation ended (idle past the timeout) and is read-only: carry on in a new one.
        if (!(chat.sessionId && (e as { code?: string }).code === 'conflict' && /read-only/.test(String((e as Error).message)))) throw e;
        chat.reset();
        r = await call(null);
      }
      chat.start({ runId: r.runId, sessionId: r.sessionId, prompt: message, demo: r.demo });
      setText('');
      setFresh(false);
    } catch (e) {
      setError(readableMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const demo = async () => {
    setError(null);
    setBusy(true);
    try {
      // The demo runs in its own sample workspace: every screen switches to it until "Back to my workspace".
      await enterDemo(client, demoSpeed);
    } catch (e) {
      setError(readableMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const stop = async () => {
    if (!running) return;
    try {
      await client.call('agent/cancel', { runId: running.runId });
    } catch (e) {
      setError(readableMessage(e));
    }
  };

  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };

  const hasKey = status.data?.hasApiKey ?? true;
  const meter = chat.context ?? status.data?.fixedContext ?? null;

  return (
    <div className="screen chat-screen">
      <header className="screen-header compact chat-header">
        <h1>Chat</h1>
        {/* While a demo runs, the header must not name Claude: the answers come from a script. */}
        {running?.demo || chat.turns.at(-1)?.demo ? (
          <span className="demo-badge" data-testid="chat-model">
            DEMO — scripted, not Claude
          </span>
        ) : (
          <span className="muted" data-testid="chat-model">
            {status.data ? (hasKey ? status.data.model : `${status.data.model} (no API key)`) : ''}
          </span>
        )}
        <span className="chat-spacer" />
        <button
          type="button"
          className="button small"
          onClick={() => {
            chat.reset();
            setFresh(true);
          }}
          disabled={!!running || chat.turns.length === 0}
        >
          New conversation
        </button>
        <DemoSpeedSelect value={demoSpeed} onChange={setDemoSpeed} disabled={busy || !!running} />
        <button
          type="button"
          className="button small"
          onClick={() => void demo()}
          disabled={busy || !!running}
          title="A scripted run in a sample workspace (your memory is not touched); no API key needed"
          data-testid="demo-button"
        >
          Demo
        </button>
      </header>

      <Meter context={meter} usage={chat.usage} />

      <div className="chat-log" aria-live="polite">
        {!hasKey && chat.turns.length === 0 && <NoKey onDemo={() => void demo()} busy={busy} />}
        {hasKey && chat.turns.length === 0 && (
          <div className="empty-state subtle">
            <h2>Ask the analyst</h2>
            <p className="muted">It reads your Views, Expressions and Process Knowledge, fetches data, and proposes trades you approve.</p>
          </div>
        )}
        {chat.turns.map((t) => (
          <Turn key={t.runId} turn={t} />
        ))}
        <div ref={bottom} />
      </div>

      {error && (
        <div className="error-panel" role="alert">
          {error}
        </div>
      )}

      <div className="chat-input">
        <TextArea
          id="chat-message"
          label="Your message"
          limit={inputLimits.chatMessage}
          value={text}
          onChange={setText}
          onKeyDown={onKey}
          placeholder={
            hasKey
              ? 'Ask about markets, Views or positions… (Enter to send, Shift+Enter for a new line)'
              : 'Add an API key in Settings to talk to Claude, or run the demo.'
          }
          rows={3}
          disabled={!hasKey}
          aria-label="Message to the analyst"
        />
        {running ? (
          <button type="button" className="button danger" onClick={() => void stop()}>
            Stop
          </button>
        ) : (
          <button
            type="button"
            className="button primary"
            onClick={() => void send()}
            disabled={!hasKey || busy || !text.trim() || text.length > inputLimits.chatMessage}
          >
            Send
          </button>
        )}
      </div>
    </div>
  );
}

function NoKey(props: { onDemo: () => void; busy: boolean }) {
  // Where a pasted key is kept depends on the mode (keychain on the desktop, memory for this run
  // headless): the secret store says it, here as in Settings, so the two can never disagree.
  const view = useProcedure('settings/get', {});
  return (
    <div className="card chat-nokey" data-testid="chat-nokey">
      <h2>Connect the analyst to Claude</h2>
      <p>The analyst needs an Anthropic API key. Nothing is answered by a stand-in model.</p>
      <ol>
        <li>
          Open <a href="#/settings">Settings → API keys</a> and paste your Anthropic key.
          {view.data && (
            <span className="hint" data-testid="chat-nokey-storage">
              {' '}
              {view.data.secretStorage}
            </span>
          )}
        </li>
        <li>
          Or set the <code>ANTHROPIC_API_KEY</code> environment variable and restart Forge.
        </li>
      </ol>
      <p>Want to see how it works first? The demo runs a scripted session on a copy of the sample workspace — your memory is not touched.</p>
      <button type="button" className="button primary" onClick={props.onDemo} disabled={props.busy}>
        Run the demo
      </button>
    </div>
  );
}

function Meter(props: { context: ContextMeter | null; usage: SessionUsage | null }) {
  const c = props.context;
  const u = props.usage;
  const pct = (n: number) => `${Math.max(0.5, (n / CONTEXT_WINDOW) * 100)}%`;
  return (
    <div className="chat-meter" role="group" aria-label="Context and usage">
      <div className="meter-bar" title={c ? `${fmt(c.total)} of ${fmt(CONTEXT_WINDOW)} tokens` : 'no run yet'}>
        {c && (
          <>
            <span className="meter-system" style={{ width: pct(c.system) }} />
            <span className="meter-tools" style={{ width: pct(c.tools) }} />
            <span className="meter-conversation" style={{ width: pct(c.conversation) }} />
          </>
        )}
      </div>
      <div className="meter-legend">
        {c ? (
          <>
            <span>
              <i className="meter-system" /> system {fmt(c.system)}
            </span>
            <span>
              <i className="meter-tools" /> tools {fmt(c.tools)}
            </span>
            <span>
              <i className="meter-conversation" /> conversation {fmt(c.conversation)}
            </span>
            <span className="muted">{((c.total / CONTEXT_WINDOW) * 100).toFixed(1)}% of context</span>
          </>
        ) : (
          <span className="muted">Context meter appears with the first answer.</span>
        )}
        {u && (
          <>
            <span className="chat-spacer" />
            <span>
              in {fmt(u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens)} · out {fmt(u.outputTokens)}
            </span>
            <span>cache read {(u.cacheReadShare * 100).toFixed(0)}%</span>
            <span>{u.costUsd === null ? 'cost n/a' : `$${u.costUsd.toFixed(4)}`}</span>
          </>
        )}
      </div>
    </div>
  );
}

function Turn({ turn }: { turn: ChatTurn }) {
  return (
    <section className={`chat-turn${turn.demo ? ' is-demo' : ''}`}>
      {turn.prompt && (
        <div className="chat-msg from-pm">
          {turn.demo && <span className="demo-badge">DEMO</span>}
          {turn.prompt}
        </div>
      )}
      <div className="chat-msg from-analyst">
        {turn.demo && <span className="demo-badge">DEMO — scripted, not Claude</span>}
        {turn.parts.map((p, i) =>
          p.kind === 'text' ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: a turn's parts only grow at the end and text parts have no id; tool calls are keyed by callId.
            <p key={i} className="chat-text">
              {p.text}
            </p>
          ) : (
            <ToolCall key={p.call.callId} call={p.call} />
          ),
        )}
        {turn.status === 'running' && (
          <span className="chat-typing" role="img" aria-label="The analyst is working">
            …
          </span>
        )}
        {turn.status === 'cancelled' && <p className="muted">Stopped.</p>}
        {turn.status === 'max_rounds' && <p className="muted">Stopped after too many steps without an answer; ask again more narrowly.</p>}
        {turn.error && (
          <div className="error-panel" role="alert">
            {turn.error.message}
            {turn.error.requestId && !turn.error.message.includes(turn.error.requestId) && <> (request id {turn.error.requestId})</>}
            <div className="muted">Nothing was half-written to memory. Try again in a moment.</div>
          </div>
        )}
      </div>
    </section>
  );
}
