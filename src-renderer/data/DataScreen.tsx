import { useQueryClient } from '@tanstack/react-query';
import type { ProcedureOutput } from '../../src-main/api';
import { procedureKey, useProcedure } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { screenInfo } from '../app/screens';
import { CurvePanel } from './CurvePanel';
import { DataFolder } from './DataFolder';
import type { ProviderView } from './model';
import { OptionPanel } from './OptionPanel';
import { ProviderCard } from './ProviderCard';
import './data.css';

type ProvidersList = ProcedureOutput<'providers/list'>;

/**
 * Where the analyst's data comes from: each source with its health, key and settings and a test
 * fetch; and the analytics the analyst runs (option pricing, yield curves) for the PM to try.
 */
export function DataScreen() {
  const info = screenInfo.data;
  const queryClient = useQueryClient();
  const list = useProcedure('providers/list', {});

  // A change answers the provider's new view: put it in place at once, then re-read the rest.
  const onChanged = (view: ProviderView) => {
    queryClient.setQueryData<ProvidersList>(procedureKey('providers/list', {}), (old) =>
      old ? { providers: old.providers.map((p) => (p.name === view.name ? view : p)) } : old,
    );
    void queryClient.invalidateQueries({ queryKey: procedureKey('providers/list') });
  };

  return (
    <section className="screen" data-testid="screen-data" aria-labelledby="title-data">
      <div className="screen-scroll data-scroll">
        <header className="screen-header">
          <h1 id="title-data">{info.label}</h1>
          <p className="screen-purpose">{info.purpose}</p>
        </header>

        <DataFolder />

        <section className="data-section" aria-labelledby="providers-title" data-testid="data-providers">
          <h2 id="providers-title">Sources</h2>
          <p className="hint data-section-lead">
            What the analyst can fetch. Switch a source off and the analyst no longer sees it; a test fetch runs exactly what the analyst would.
          </p>
          {list.isPending && <p className="muted">Loading…</p>}
          {list.isError && <ErrorPanel error={list.error} onRetry={() => void list.refetch()} inline testId="providers-error" />}
          {list.data && list.data.providers.length === 0 && <p className="muted">No data sources are registered in this Forge.</p>}
          {list.data?.providers.map((p) => (
            <ProviderCard key={p.name} provider={p} onChanged={onChanged} />
          ))}
        </section>

        <section className="data-section" aria-labelledby="analytics-title" data-testid="data-analytics">
          <h2 id="analytics-title">Analytics</h2>
          <p className="hint data-section-lead">The calculations behind the analyst's option and curve work, to try by hand. Rates and vols in %.</p>
          <OptionPanel />
          <CurvePanel />
        </section>
      </div>
    </section>
  );
}
