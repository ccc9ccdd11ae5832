import type { BuildDetail } from '../../src-main/api/builds';
import { useProcedure } from '../api/hooks';
import { compactionMarks, contextShares, percent, shortTokens } from './context';
import { clock } from './model';

/** Compaction starts past this share of the window unless Settings → Builder says otherwise (the core's default). */
const DEFAULT_COMPACT_AT = 0.7;

/**
 * How full the model's window is: the fixed part sent every turn (system prompt, tool
 * definitions) and the conversation, against the limit, with the compaction threshold and past
 * compactions marked. The core counts both with the o200k BPE (builder/tokens.ts), not a
 * characters estimate, so the bar and the compaction point agree with what is really sent.
 */
export function ContextMeter(props: { context: BuildDetail['context']; turns: BuildDetail['turns'] }) {
  const settings = useProcedure('settings/get', {});
  const compactAt = settings.data?.settings.builder?.compactAtShare ?? DEFAULT_COMPACT_AT;
  const c = props.context;
  const s = contextShares(c);
  const marks = compactionMarks(c);
  const last = props.turns[props.turns.length - 1];
  return (
    <section className="builds-section build-context" aria-labelledby="build-context-title" data-testid="build-context">
      <h2 id="build-context-title">Context</h2>
      <div
        className={s.over ? 'context-bar is-over' : 'context-bar'}
        role="meter"
        aria-label="Context used"
        aria-valuemin={0}
        aria-valuemax={c.limitTokens}
        aria-valuenow={Math.min(s.usedTokens, c.limitTokens)}
        aria-valuetext={`${shortTokens(s.usedTokens)} of ${shortTokens(c.limitTokens)} tokens (${percent(s.usedShare)})`}
        data-testid="context-bar"
      >
        <span className="context-fixed" style={{ width: percent(s.fixed) }} />
        <span className="context-conversation" style={{ width: percent(s.conversation) }} />
        <span className="context-threshold" style={{ left: percent(compactAt) }} title={`Compaction starts at ${percent(compactAt)}`} />
        {marks.map((m) => (
          <span key={`${m.turn}-${m.at}`} className="context-compaction" style={{ left: percent(m.share) }} title={`Compacted at ${m.label}`} />
        ))}
      </div>
      <dl className="context-legend">
        <div>
          <dt>
            <span className="swatch context-fixed" /> fixed
          </dt>
          <dd data-testid="context-fixed">{shortTokens(c.fixedTokens)}</dd>
        </div>
        <div>
          <dt>
            <span className="swatch context-conversation" /> conversation
          </dt>
          <dd data-testid="context-conversation">{shortTokens(c.conversationTokens)}</dd>
        </div>
        <div>
          <dt>limit</dt>
          <dd>
            {shortTokens(c.limitTokens)} <span className="muted">({percent(s.usedShare)} used)</span>
          </dd>
        </div>
      </dl>
      {s.over && <p className="field-error">Over the limit: the next turn compacts the conversation.</p>}
      <p className="hint" data-testid="context-tokenizer">
        Fixed and conversation are counted with a BPE tokenizer (o200k); the model's own count, the turn's "in", may differ by a few percent.
      </p>
      <p className="hint">
        {props.turns.length} {props.turns.length === 1 ? 'turn' : 'turns'}
        {last && ` · last: ${shortTokens(last.inputTokens)} in, ${shortTokens(last.outputTokens)} out, ${shortTokens(last.cacheReadTokens)} from cache`}
      </p>
      {marks.length > 0 && (
        <>
          <h3 className="small">Compactions</h3>
          <ul className="context-compactions" data-testid="context-compactions">
            {marks.map((m) => (
              <li key={`${m.turn}-${m.at}`}>
                <time dateTime={m.at}>{clock(m.at)}</time> {m.label} <span className="muted">({shortTokens(m.saved)} freed)</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
