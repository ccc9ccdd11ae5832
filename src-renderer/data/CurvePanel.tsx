// biome-ignore-all lint/suspicious/noArrayIndexKey: instrument rows have no identity beyond their place while the PM edits them.
import { type FormEvent, useState } from 'react';
import type { ProcedureOutput } from '../../src-main/api';
import { readableMessage } from '../api/errors';
import { useProcedureMutation } from '../api/hooks';
import { type BondRow, bondsRequest, type CurveInput, fixed, pct, sampleBonds } from './analytics-form';
import { Choice } from './inputs';
import { type ChartSeries, LineChart } from './LineChart';

type CurveResult = ProcedureOutput<'analytics/curve'>;
type CurveModel = NonNullable<CurveInput['model']>;

const MAX_ROWS = 40;
const COLUMNS: { key: keyof Omit<BondRow, 'frequency'>; label: string; placeholder?: string }[] = [
  { key: 'maturity', label: 'Maturity (years)' },
  { key: 'coupon', label: 'Coupon (%)' },
  { key: 'price', label: 'Price per 100', placeholder: 'par' },
];

/**
 * A zero curve from a few bonds: bootstrapped zero rates at each maturity, forwards between them,
 * and a Nelson–Siegel (or Svensson) fit drawn through them.
 */
export function CurvePanel() {
  const [rows, setRows] = useState<BondRow[]>(sampleBonds);
  const [model, setModel] = useState<CurveModel>('ns');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const run = useProcedureMutation('analytics/curve');

  const edit = (i: number, patch: Partial<BondRow>) => setRows((old) => old.map((r, n) => (n === i ? { ...r, ...patch } : r)));
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const req = bondsRequest(rows);
    setErrors(req.ok ? {} : req.errors);
    if (req.ok) run.mutate({ bonds: req.value, model, chartPoints: 61 });
  };

  return (
    <article className="card data-analytics" data-testid="curve-panel" aria-labelledby="curve-title">
      <h3 id="curve-title">Yield curve</h3>
      <p className="hint">Bills and bonds (a blank price is a par bond, so the coupon is its par yield). Zero rates are solved in maturity order.</p>
      <form onSubmit={onSubmit} noValidate aria-label="Curve instruments">
        <table className="data-table data-bonds" data-testid="curve-bonds">
          <thead>
            <tr>
              {COLUMNS.map((c) => (
                <th key={c.key} scope="col" className="num">
                  {c.label}
                </th>
              ))}
              <th scope="col">Coupons a year</th>
              <th scope="col">
                <span className="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i} data-testid="bond-row">
                {COLUMNS.map((c) => {
                  const err = errors[`${i}.${c.key}`];
                  return (
                    <td key={c.key} className={err ? 'has-error' : undefined}>
                      <input
                        type="text"
                        inputMode="decimal"
                        className="num"
                        aria-label={`Bond ${i + 1} ${c.label}`}
                        data-testid={`bond-${i}-${c.key}`}
                        placeholder={c.placeholder}
                        value={r[c.key]}
                        aria-invalid={err ? true : undefined}
                        onChange={(e) => edit(i, { [c.key]: e.target.value })}
                      />
                      {err && (
                        <p className="field-error" data-testid={`bond-error-${i}-${c.key}`}>
                          {err}
                        </p>
                      )}
                    </td>
                  );
                })}
                <td>
                  <select
                    aria-label={`Bond ${i + 1} coupons a year`}
                    value={r.frequency}
                    onChange={(e) => edit(i, { frequency: e.target.value as BondRow['frequency'] })}
                  >
                    <option value="1">1</option>
                    <option value="2">2</option>
                    <option value="4">4</option>
                    <option value="12">12</option>
                  </select>
                </td>
                <td>
                  <button
                    type="button"
                    className="button small"
                    aria-label={`Remove bond ${i + 1}`}
                    onClick={() => setRows((old) => old.filter((_, n) => n !== i))}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {errors.table && (
          <p className="field-error" data-testid="curve-table-error">
            Instruments: {errors.table}
          </p>
        )}
        <div className="data-actions">
          <button
            type="button"
            className="button small"
            disabled={rows.length >= MAX_ROWS}
            onClick={() => setRows((old) => [...old, { maturity: '', coupon: '', price: '', frequency: '2' }])}
          >
            Add a bond
          </button>
          <button type="button" className="button small" onClick={() => setRows(sampleBonds)}>
            Reset to the sample
          </button>
          <Choice id="curve-model" label="Fit" value={model} onChange={(v) => setModel(v as CurveModel)}>
            <option value="ns">Nelson–Siegel</option>
            <option value="nss">Svensson</option>
            <option value="both">Both</option>
          </Choice>
          <button type="submit" className="button primary" data-testid="curve-run" disabled={run.isPending}>
            Fit the curve
          </button>
        </div>
      </form>
      <div aria-live="polite">
        {run.isError && (
          <p className="data-fetch-error" role="alert" data-testid="curve-error">
            {readableMessage(run.error)}
          </p>
        )}
        {run.isSuccess && <CurveResultView result={run.data} />}
      </div>
    </article>
  );
}

function CurveResultView(props: { result: CurveResult }) {
  const r = props.result;
  const fits = [r.ns, r.nss].filter((f): f is NonNullable<CurveResult['ns']> => f !== null);
  const toPct = (y: number | null) => (y === null ? Number.NaN : y * 100);
  const series: ChartSeries[] = [
    { name: 'Bootstrapped zero rates', points: r.zeros.map((z) => ({ x: z.maturity, y: z.zeroContinuous * 100 })), style: 'dots' },
  ];
  if (r.ns) series.push({ name: 'Nelson–Siegel zero', points: r.chart.map((c) => ({ x: c.maturity, y: toPct(c.ns) })) });
  if (r.nss) series.push({ name: 'Svensson zero', points: r.chart.map((c) => ({ x: c.maturity, y: toPct(c.nss) })) });
  if (r.ns)
    series.push({ name: 'Nelson–Siegel instantaneous forward', points: r.chart.map((c) => ({ x: c.maturity, y: toPct(c.nsForward) })), style: 'dashed' });
  if (!r.ns && !r.nss) series.push({ name: 'Monotone interpolation', points: r.chart.map((c) => ({ x: c.maturity, y: c.monotone * 100 })) });
  const last = r.zeros[r.zeros.length - 1];

  return (
    <section className="data-result" data-testid="curve-result" aria-label="Curve result">
      <div className="data-result-split">
        <table className="data-table" data-testid="curve-zeros">
          <caption>Zero rates and forwards</caption>
          <thead>
            <tr>
              <th scope="col" className="num">
                Maturity
              </th>
              <th scope="col" className="num">
                Zero (cont.)
              </th>
              <th scope="col" className="num">
                Zero (annual)
              </th>
              <th scope="col" className="num">
                Discount factor
              </th>
              <th scope="col" className="num">
                Forward from previous
              </th>
            </tr>
          </thead>
          <tbody>
            {r.zeros.map((z, i) => (
              <tr key={z.maturity} data-key={String(z.maturity)}>
                <td className="num">{z.maturity}</td>
                <td className="num">{pct(z.zeroContinuous)}</td>
                <td className="num">{pct(z.zeroAnnual)}</td>
                <td className="num">{fixed(z.discountFactor, 6)}</td>
                <td className="num">{i === 0 ? '—' : pct(r.forwards[i - 1]!.rate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {fits.length > 0 && (
          <table className="data-table" data-testid="curve-fit">
            <caption>Fitted parameters</caption>
            <thead>
              <tr>
                <th scope="col">Model</th>
                <th scope="col" className="num">
                  β0
                </th>
                <th scope="col" className="num">
                  β1
                </th>
                <th scope="col" className="num">
                  β2
                </th>
                <th scope="col" className="num">
                  λ1
                </th>
                <th scope="col" className="num">
                  β3
                </th>
                <th scope="col" className="num">
                  λ2
                </th>
                <th scope="col" className="num">
                  RMSE (bp)
                </th>
              </tr>
            </thead>
            <tbody>
              {fits.map((f) => (
                <tr key={f.params.model} data-key={f.params.model}>
                  <th scope="row">{f.params.model === 'ns' ? 'Nelson–Siegel' : 'Svensson'}</th>
                  <td className="num">{pct(f.params.beta0)}</td>
                  <td className="num">{pct(f.params.beta1)}</td>
                  <td className="num">{pct(f.params.beta2)}</td>
                  <td className="num">{fixed(f.params.lambda1, 3)}</td>
                  <td className="num">{f.params.beta3 === undefined ? '—' : pct(f.params.beta3)}</td>
                  <td className="num">{f.params.lambda2 === undefined ? '—' : fixed(f.params.lambda2, 3)}</td>
                  <td className="num" data-testid={`curve-rmse-${f.params.model}`}>
                    {fixed(f.rmse * 10_000, 2)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <LineChart
        testId="curve-chart"
        title="Zero curve"
        description={`Continuously compounded zero rates bootstrapped at ${r.zeros.length} maturities up to ${last?.maturity ?? 0} years${fits.length ? ', with the fitted curve and its instantaneous forward' : ''}, in percent.`}
        xLabel="Maturity (years)"
        yLabel="Rate (%)"
        series={series}
        formatY={(v, d) => `${v.toFixed(d)}%`}
      />
    </section>
  );
}
