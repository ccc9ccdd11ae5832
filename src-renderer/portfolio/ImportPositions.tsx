import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useProcedureMutation } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';

const COLUMNS = 'instrument, factor, exposure_pct_nav (signed % of NAV) or notional_musd; optional: side, duration, expression';

/**
 * Replaces the positions snapshot with a CSV exported from the order/risk system. The core checks
 * the whole file first: any error names its row and column, and then nothing changes.
 */
export function ImportPositions(props: { currentNav: number | null }) {
  const queryClient = useQueryClient();
  const importer = useProcedureMutation('portfolio/import');
  const [file, setFile] = useState<File | null>(null);
  const [asOf, setAsOf] = useState(() => new Date().toISOString().slice(0, 10));
  const [nav, setNav] = useState('');

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!file) return;
    const navMusd = nav.trim() ? Number(nav) : undefined;
    importer.mutate(
      { csv: await file.text(), asOf, ...(navMusd !== undefined && Number.isFinite(navMusd) ? { navMusd } : {}) },
      {
        onSuccess: () => {
          for (const key of ['portfolio/book', 'guardrails/limits', 'memory/read']) void queryClient.invalidateQueries({ queryKey: [key] });
        },
      },
    );
  }

  return (
    <form className="import-positions" data-testid="import-positions" onSubmit={(e) => void submit(e)}>
      <h3>Import positions</h3>
      <p className="muted small">
        A CSV from your order or risk system replaces this snapshot. Columns: {COLUMNS}. Other columns are ignored. The previous snapshot is kept.
      </p>
      <div className="import-row">
        <label>
          File
          <input type="file" accept=".csv,text/csv" data-testid="import-file" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </label>
        <label>
          As of
          <input type="date" value={asOf} onChange={(e) => setAsOf(e.target.value)} data-testid="import-as-of" required />
        </label>
        <label>
          NAV ($m)
          <input
            type="number"
            min="0"
            step="any"
            value={nav}
            placeholder={props.currentNav === null ? 'required for notional_musd' : String(props.currentNav)}
            onChange={(e) => setNav(e.target.value)}
            data-testid="import-nav"
          />
        </label>
        <button type="submit" className="button primary" disabled={!file || importer.isPending} data-testid="import-submit">
          {importer.isPending ? 'Importing…' : 'Import'}
        </button>
      </div>
      {importer.isError && (
        <div data-testid="import-error" className="import-error">
          <ErrorPanel error={importer.error} />
        </div>
      )}
      {importer.data && !importer.isPending && (
        <p className="muted" data-testid="import-done" role="status">
          Imported {importer.data.rows} positions as of {importer.data.asOf}; gross is now {importer.data.book.gross}% of NAV.
          {importer.data.previousKeptAs && (
            <>
              {' '}
              The previous snapshot is kept as <code>{importer.data.previousKeptAs}</code>.
            </>
          )}
        </p>
      )}
    </form>
  );
}
