import { useEffect, useRef } from 'react';
import { useProcedure } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { PriceSourceTable } from './price-source';
import { Section } from './sections';

/** Where the Expression's prices come from; asked again when the record changes (a closed trade then shows what it was priced from). */
export function PriceSourceSection(props: { id: string; version: number }) {
  const sources = useProcedure('expressions/price-source', { id: props.id });
  const seen = useRef(props.version);
  const { refetch } = sources;
  useEffect(() => {
    if (seen.current === props.version) return;
    seen.current = props.version;
    void refetch();
  }, [props.version, refetch]);
  return (
    <Section title="Prices from" id="expression-prices" testId="expression-prices">
      {sources.isPending && <p className="muted">Looking up its price series as the tracker reads them…</p>}
      {sources.isError && <ErrorPanel error={sources.error} inline onRetry={() => void sources.refetch()} />}
      {sources.data && <PriceSourceTable view={sources.data} />}
    </Section>
  );
}
