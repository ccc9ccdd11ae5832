import { useProcedure } from '../api/hooks';
import { formatHash } from '../app/routes';
import { relativeTime } from '../memory/format';
import { formatDuration, taskRoute } from '../tasks/model';
import { nextRuns, runningTasks } from './model';
import { ItemLink, Panel } from './Panel';

/**
 * Home's "what is happening" cards: the analyst's running sub-agents, skill edits waiting for a
 * decision, the next scheduled runs and what the latest morning review found.
 */

export function TasksPanel() {
  // The server filters to running tasks; pushed `tasks/changed` updates are merged into this cache.
  const listed = useProcedure('tasks/list', { status: ['running'], limit: 50 });
  const tasks = listed.data ? runningTasks(listed.data.tasks) : [];
  return (
    <Panel
      id="tasks"
      title="Tasks running"
      screen="tasks"
      linkLabel="Tasks →"
      count={listed.data ? tasks.length : null}
      query={listed}
      isEmpty={tasks.length === 0}
      empty="No sub-agents are running. They start when the analyst dispatches work from Chat, or when you run the Demo."
    >
      <ul className="home-list">
        {tasks.map((t) => (
          <ItemLink key={`${t.sessionId}/${t.id}`} screen="tasks" rest={taskRoute(t)} testId="home-task-item" dataId={t.id}>
            <span className="home-id">{t.skill}</span>
            <span className="home-title">{t.objective}</span>
            <span className="home-when num">{formatDuration(t.durationMs)}</span>
          </ItemLink>
        ))}
      </ul>
    </Panel>
  );
}

export function ProposalsPanel() {
  const listed = useProcedure('proposals/list', { status: 'pending' });
  const proposals = listed.data?.proposals ?? [];
  return (
    <Panel
      id="proposals"
      title="Proposals pending"
      screen="proposals"
      linkLabel="Proposals →"
      count={listed.data?.pendingCount ?? null}
      query={listed}
      isEmpty={proposals.length === 0}
      empty="No skill edits wait for a decision. The weekly retrospective proposes one when several lessons agree."
    >
      <ul className="home-list">
        {proposals.map((p) => (
          <ItemLink key={p.id} screen="proposals" rest={[p.id]} testId="home-proposal-item" dataId={p.id}>
            <span className="home-id">{p.id}</span>
            <span className="home-title">{p.title}</span>
            {p.skill && <span className="home-when">{p.skill}</span>}
          </ItemLink>
        ))}
      </ul>
    </Panel>
  );
}

export function ScheduledPanel() {
  const listed = useProcedure('schedule/list', {}, { staleTime: 30_000 });
  const jobs = listed.data ? nextRuns(listed.data.jobs) : [];
  return (
    <Panel
      id="schedule"
      title="Next scheduled runs"
      screen="schedule"
      linkLabel="Schedule →"
      query={listed}
      isEmpty={jobs.length === 0}
      empty="Nothing is scheduled: every job is paused. Resume one on the Schedule screen."
    >
      <ul className="home-list">
        {jobs.map((j) => (
          <ItemLink key={j.job} screen="schedule" testId="home-schedule-item" dataId={j.job}>
            <span className="home-title">{j.title}</span>
            {j.running && <span className="badge">running</span>}
            <span className="home-when num">{j.nextRunLocal ?? '—'}</span>
          </ItemLink>
        ))}
      </ul>
    </Panel>
  );
}

export function MorningReviewPanel() {
  const listed = useProcedure('schedule/reports', { limit: 1 });
  const latest = listed.data?.reports[0] ?? null;
  return (
    <Panel
      id="review"
      title="Latest morning review"
      screen="schedule"
      linkLabel="Schedule →"
      query={listed}
      isEmpty={latest === null}
      empty="No morning review has run yet. Start one with Run now on the Schedule screen; what moved and which invalidations fired will show here."
    >
      {latest && (
        <a className="home-review" href={formatHash({ screen: 'schedule' })} data-testid="home-review-report">
          <span className="muted small">{relativeTime(latest.at)}</span>
          <dl className="home-figures">
            <Figure label="Views reviewed" value={latest.counts.views} />
            <Figure label="with moves" value={latest.counts.moved} />
            <Figure label="invalidations fired" value={latest.counts.fired} tone={latest.counts.fired > 0 ? 'warn' : undefined} />
            <Figure label="warnings" value={latest.counts.warnings} tone={latest.counts.warnings > 0 ? 'warn' : undefined} />
          </dl>
        </a>
      )}
    </Panel>
  );
}

function Figure(props: { label: string; value: number; tone?: 'warn' }) {
  return (
    <div className={props.tone ? `home-figure tone-${props.tone}` : 'home-figure'}>
      <dt>{props.label}</dt>
      <dd className="num">{props.value}</dd>
    </div>
  );
}
