import { type FormEvent, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ProcedureOutput } from '../../src-main/api';
import { readableMessage } from '../api/errors';
import { useClient, useProcedureMutation } from '../api/hooks';
import { fixed, type OptionForm, type OptionInput, optionRequest, payoffAtExpiry, pct, sampleOption, spotGrid, valueGridQuery } from './analytics-form';
import { Choice, Num } from './inputs';
import { LineChart } from './LineChart';

type OptionResult = ProcedureOutput<'analytics/option'>;

/**
 * Price an option from a volatility, or solve the volatility a market price implies (BSM on a
 * spot with a dividend yield, or Black-76 on a forward). Shows the price, the greeks, and the
 * option's value against the underlying today and at expiry.
 */
export function OptionPanel() {
  const [form, setForm] = useState<OptionForm>(sampleOption);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [asked, setAsked] = useState<OptionInput | null>(null);
  const run = useProcedureMutation('analytics/option');

  const set = <K extends keyof OptionForm>(key: K, value: OptionForm[K]) => setForm((old) => ({ ...old, [key]: value }));

  const submit = (f: OptionForm) => {
    const req = optionRequest(f);
    setErrors(req.ok ? {} : req.errors);
    if (!req.ok) return;
    setAsked(req.value);
    run.mutate(req.value);
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit(form);
  };
  // The round trip a PM does to check a quote: the model's price in, the volatility back out.
  const solveBack = (price: number) => {
    const next: OptionForm = { ...form, solve: 'iv', price: price.toFixed(6) };
    setForm(next);
    submit(next);
  };

  const underlyingWord = form.model === 'black76' ? 'Forward' : 'Spot';
  return (
    <article className="card data-analytics" data-testid="option-panel" aria-labelledby="option-title">
      <h3 id="option-title">Option pricer</h3>
      <form className="data-option-form" onSubmit={onSubmit} noValidate aria-label="Option">
        <div className="data-grid-fields">
          <Choice id="opt-model" label="Model" value={form.model} onChange={(v) => set('model', v as OptionForm['model'])}>
            <option value="bsm">BSM (spot)</option>
            <option value="black76">Black-76 (forward)</option>
          </Choice>
          <Choice id="opt-type" label="Type" value={form.type} onChange={(v) => set('type', v as OptionForm['type'])}>
            <option value="call">Call</option>
            <option value="put">Put</option>
          </Choice>
          <Choice id="opt-solve" label="Solve for" value={form.solve} onChange={(v) => set('solve', v as OptionForm['solve'])}>
            <option value="price">Price + greeks</option>
            <option value="iv">Implied vol</option>
          </Choice>
          <Num id="opt-underlying" label={underlyingWord} value={form.underlying} error={errors.underlying} onChange={(v) => set('underlying', v)} />
          <Num id="opt-strike" label="Strike" value={form.strike} error={errors.strike} onChange={(v) => set('strike', v)} />
          <Num id="opt-expiry" label="Expiry (years or 6m)" value={form.expiry} error={errors.expiry} onChange={(v) => set('expiry', v)} />
          <Num id="opt-rate" label="Rate (%, cont.)" value={form.rate} error={errors.rate} onChange={(v) => set('rate', v)} />
          {form.model === 'bsm' && (
            <Num
              id="opt-dividend"
              label="Dividend yield (%)"
              value={form.dividendYield}
              error={errors.dividendYield}
              onChange={(v) => set('dividendYield', v)}
            />
          )}
          {form.solve === 'price' ? (
            <Num id="opt-vol" label="Volatility (%)" value={form.vol} error={errors.vol} onChange={(v) => set('vol', v)} />
          ) : (
            <Num id="opt-price" label="Option price" value={form.price} error={errors.price} onChange={(v) => set('price', v)} />
          )}
        </div>
        <div className="data-actions">
          <button type="submit" className="button primary" data-testid="option-run" disabled={run.isPending}>
            {form.solve === 'price' ? 'Price it' : 'Solve implied vol'}
          </button>
        </div>
      </form>
      <div aria-live="polite">
        {run.isError && (
          <p className="data-fetch-error" role="alert" data-testid="option-error">
            {readableMessage(run.error)}
          </p>
        )}
        {run.isSuccess && asked && <OptionResultView input={asked} result={run.data} onSolveBack={solveBack} />}
      </div>
    </article>
  );
}

function OptionResultView(props: { input: OptionInput; result: OptionResult; onSolveBack: (price: number) => void }) {
  const r = props.result;
  const g = r.greeks;
  const rows: [string, string, string, string][] = [
    ['price', 'Price', fixed(r.price, 4), r.impliedVol ? 'the price given' : 'per unit of underlying'],
    [
      'vol',
      r.impliedVol ? 'Implied volatility' : 'Volatility',
      pct(r.vol, 2),
      r.impliedVol ? `solved in ${r.impliedVol.iterations} iterations (tolerance ${r.impliedVol.tolerance})` : 'as given',
    ],
    ['delta', 'Delta', fixed(g.delta, 4), 'per 1 of underlying'],
    ['gamma', 'Gamma', fixed(g.gamma, 5), 'delta per 1 of underlying'],
    ['vega', 'Vega', fixed(g.vega / 100, 4), 'per 1 vol point'],
    ['theta', 'Theta', fixed(g.theta / 365, 4), 'per calendar day'],
    ['rho', 'Rho', fixed(g.rho / 100, 4), 'per 1% of rate'],
    ...(r.model === 'bsm'
      ? [['dividendRho', 'Dividend rho', fixed(g.dividendRho / 100, 4), 'per 1% of dividend yield'] as [string, string, string, string]]
      : []),
    ['forward', 'Forward', fixed(r.forward, 4), 'of the underlying at expiry'],
    ['bounds', 'No-arbitrage bounds', `${fixed(r.bounds.lower, 4)} – ${fixed(r.bounds.upper, 4)}`, 'any price outside has no implied vol'],
  ];
  return (
    <section className="data-result" data-testid="option-result" aria-label="Option result">
      <div className="data-result-split">
        <table className="data-table" data-testid="option-table">
          <caption className="visually-hidden">
            {r.model === 'bsm' ? 'BSM' : 'Black-76'} {r.type}: price and greeks
          </caption>
          <thead>
            <tr>
              <th scope="col">Figure</th>
              <th scope="col" className="num">
                Value
              </th>
              <th scope="col">Unit</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([key, label, value, unit]) => (
              <tr key={key} data-key={key}>
                <th scope="row">{label}</th>
                <td className="num">{value}</td>
                <td className="muted">{unit}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {!r.impliedVol && (
          <p className="hint">
            <button type="button" className="button small" data-testid="option-solve-back" onClick={() => props.onSolveBack(r.price)}>
              Solve the vol back from this price
            </button>{' '}
            Checks the round trip: the implied vol should come back to {pct(r.vol, 2)}.
          </p>
        )}
      </div>
      <ValueChart input={props.input} result={r} />
    </section>
  );
}

/** Value today (the model at this vol, across underlying levels) and the payoff at expiry. */
function ValueChart(props: { input: OptionInput; result: OptionResult }) {
  const client = useClient();
  const { input, result } = props;
  const spots = spotGrid(input.underlying, input.strike);
  // One request for the whole line: the core values the option at every spot level at once.
  const grid = useQuery(valueGridQuery(client, input, result.vol));
  const word = input.model === 'black76' ? 'forward' : 'spot';
  const today = grid.data ?? [];
  const expiry = payoffAtExpiry(input.type, input.strike, spots);
  return (
    <div className="data-chart-wrap">
      <LineChart
        testId="option-chart"
        title={`${input.type === 'call' ? 'Call' : 'Put'} value against the ${word}`}
        description={`Strike ${input.strike}, ${input.expiryYears.toFixed(2)} years, volatility ${pct(result.vol, 2)}: the model value today and the payoff at expiry for ${word} levels from ${spots[0]!.toFixed(1)} to ${spots[spots.length - 1]!.toFixed(1)}. Today's ${word} is ${input.underlying}.`}
        xLabel={`${word[0]!.toUpperCase()}${word.slice(1)}`}
        yLabel="Option value"
        series={[
          { name: 'Value today', points: today },
          { name: 'Payoff at expiry', points: expiry, style: 'dashed' },
        ]}
        markerX={{ value: input.underlying, label: `${word} ${input.underlying}` }}
      />
      {grid.isPending && <p className="hint">Pricing across {word} levels…</p>}
      {grid.isError && <p className="hint">The value-today line could not be drawn: {readableMessage(grid.error)}</p>}
    </div>
  );
}
