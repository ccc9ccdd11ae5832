import type { BuildDetail } from '../../src-main/api/builds';
import { useProcedure } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { Icon } from '../app/Icon';
import { formatCost, formatTokens } from '../tasks/model';
import { BuildControls } from './BuildControls';
import { CommandAccess } from './CommandAccess';
import { ContextMeter } from './ContextMeter';
import { mergeDetail } from './live';
import { LiveLog } from './LiveLog';
import { phaseProgress, statusLabel } from './model';
import { PhasesBoard } from './PhasesBoard';
import { Scratchpad } from './Scratchpad';

/** One build in full: where it stands and its controls, the phases board, the live log, its scratchpad and context. */
export function BuildDetailView(props: { id: string; onClose: () => void }) {
  const got = useProcedure(
    'builds/get',
    { id: props.id },
    {
      // A log line pushed while this read was on its way is kept, not dropped until the next change.
      structuralSharing: (old, next) => mergeDetail(old as BuildDetail | undefined, next as BuildDetail),
    },
  );
  const d = got.data;

  return (
    <article className="record-view build-detail" data-testid="build-detail" aria-label={d ? `Build of ${d.build.projectName}` : `Build ${props.id}`}>
      <div className="record-toolbar">
        <code className="record-path">{d?.build.workDir ?? props.id}</code>
        <button type="button" className="icon-button" aria-label="Close build" onClick={props.onClose}>
          <Icon name="close" size={16} />
        </button>
      </div>
      <div className="record-scroll">
        {got.isPending && <p className="muted pad">Opening…</p>}
        {got.isError && <ErrorPanel error={got.error} onRetry={() => void got.refetch()} />}
        {d && (
          <div className="pad builds-detail-body">
            <Header detail={d} />
            <BuildControls build={d.build} stop={d.stop} />
            <CommandAccess build={d.build} commands={d.commands} />
            {d.build.error && (d.build.status === 'failed' || d.build.status === 'interrupted' || d.build.status === 'stopped') && (
              <div className="build-error" role="status" data-testid="build-error">
                <strong>{d.build.status === 'stopped' ? 'Stopped' : d.build.status === 'interrupted' ? 'Interrupted' : 'Failed'}.</strong> {d.build.error}
              </div>
            )}
            <PhasesBoard phases={d.phases} currentPhase={d.build.currentPhase} />
            <div className="builds-lower">
              <LiveLog log={d.log} />
              <aside className="builds-side">
                <ContextMeter context={d.context} turns={d.turns} />
                <Scratchpad entries={d.scratchpad} />
              </aside>
            </div>
          </div>
        )}
      </div>
    </article>
  );
}

function Header({ detail }: { detail: BuildDetail }) {
  const b = detail.build;
  const progress = phaseProgress(b, detail.phases);
  return (
    <header className="record-head">
      <div className="record-id">{b.id}</div>
      <h1 className="record-title" data-testid="build-title">
        {b.projectName}
      </h1>
      <div className="record-chips">
        <span className={`build-status is-${b.status}`} data-testid="build-status" data-status={b.status}>
          {statusLabel[b.status]}
        </span>
        <span className="chip" data-testid="build-progress" title="Phases signed off out of all phases">
          {progress.signedOff}/{progress.total} signed off
        </span>
        {b.status !== 'completed' && <span className="chip">on phase {b.currentPhase}</span>}
        <span className="chip">{b.mode === 'mcp' ? 'MCP contracts' : 'contract dump'}</span>
        {b.mini && <span className="chip">mini build</span>}
      </div>
      <dl className="facts record-facts build-facts" data-testid="build-facts">
        <div className="fact">
          <dt>model</dt>
          <dd>{b.model}</dd>
        </div>
        <div className="fact">
          <dt>tokens</dt>
          <dd>
            {formatTokens(b.inputTokens)} in · {formatTokens(b.outputTokens)} out
          </dd>
        </div>
        <div className="fact">
          <dt>cost</dt>
          <dd>{formatCost(b.costUsd)}</dd>
        </div>
        <div className="fact">
          <dt>started</dt>
          <dd>{new Date(b.createdAt).toLocaleString()}</dd>
        </div>
      </dl>
    </header>
  );
}
