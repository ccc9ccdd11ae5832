import { type FormEvent, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { procedureKey, useProcedureMutation } from '../api/hooks';
import { readableMessage } from '../api/errors';
import { Markdown } from '../markdown';
import type { ProviderView } from './model';
import { ParamsFields } from './ParamsFields';
import { activeFields, buildParams, formOf, type JsonSchema, parseJsonParams } from './schema-form';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * One fetch run as the analyst would run it, from a form built from the provider's parameter
 * schema, optionally as of a past date. Shows what the analyst would read (label, as-of, source,
 * summary) and the full stored result.
 */
export function TestFetch(props: { provider: ProviderView }) {
  const p = props.provider;
  const queryClient = useQueryClient();
  const form = useMemo(() => formOf(p.params as JsonSchema), [p.params]);
  const [variant, setVariant] = useState<string | null>(form.kind === 'union' ? (form.variants[0]?.value ?? null) : null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [asJson, setAsJson] = useState(form.kind === 'json');
  const [json, setJson] = useState('{}');
  const [asOf, setAsOf] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const run = useProcedureMutation('providers/test-fetch');
  const fields = activeFields(form, variant);
  const id = `fetch-${p.name}`;
  // The registry refuses every fetch from a source that is not set up; the card already says why.
  const unconfigured = p.health.state === 'not_configured';

  const toJson = () => {
    const built = fields ? buildParams(fields, values) : null;
    setJson(JSON.stringify(built?.ok ? built.params : (fields?.fixed ?? {}), null, 2));
    setErrors({});
    setAsJson(true);
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const built = asJson || !fields ? parseJsonParams(json) : buildParams(fields, values);
    const next: Record<string, string> = built.ok ? {} : { ...built.errors };
    if (asOf.trim() !== '' && !DAY.test(asOf.trim())) next.asOf = 'must be a date YYYY-MM-DD';
    setErrors(next);
    if (!built.ok || next.asOf) return;
    run.mutate(
      { name: p.name, params: built.params, ...(asOf.trim() ? { asOf: asOf.trim() } : {}) },
      // A fetch changes the provider's health (ok since now, or failing with this error).
      { onSettled: () => void queryClient.invalidateQueries({ queryKey: procedureKey('providers/list') }) },
    );
  };

  return (
    <div className="data-test-fetch" data-testid={`test-fetch-${p.name}`}>
      <form onSubmit={onSubmit} noValidate aria-label={`Test fetch from ${p.name}`}>
        {form.kind === 'json' && <p className="hint">{form.reason}</p>}
        {form.kind === 'union' && !asJson && (
          <div className="field data-field">
            <label htmlFor={`${id}-variant`}>
              <code>{form.discriminator}</code>
            </label>
            <select id={`${id}-variant`} data-testid="param-variant" value={variant ?? ''} onChange={(e) => setVariant(e.target.value)}>
              {form.variants.map((v) => (
                <option key={v.value} value={v.value}>
                  {v.value}
                </option>
              ))}
            </select>
            <p className="hint">Choose what to run; the fields below follow.</p>
          </div>
        )}
        {!asJson && fields && (
          <ParamsFields
            idPrefix={id}
            fields={fields.fields}
            values={values}
            errors={errors}
            onChange={(name, v) => setValues((old) => ({ ...old, [name]: v }))}
          />
        )}
        {asJson && (
          <div className={errors.json ? 'field data-field has-error' : 'field data-field'}>
            <label htmlFor={`${id}-json`}>Parameters (JSON)</label>
            <textarea
              id={`${id}-json`}
              className="data-json"
              data-testid="param-json"
              rows={6}
              spellCheck={false}
              value={json}
              aria-invalid={errors.json ? true : undefined}
              onChange={(e) => setJson(e.target.value)}
            />
            {errors.json && (
              <p className="field-error" data-testid="param-error-json">
                JSON {errors.json}
              </p>
            )}
          </div>
        )}
        <div className={errors.asOf ? 'field data-field has-error' : 'field data-field'}>
          <label htmlFor={`${id}-asof`}>As of (optional)</label>
          <input
            id={`${id}-asof`}
            type="text"
            data-testid="fetch-as-of"
            placeholder="YYYY-MM-DD"
            autoComplete="off"
            value={asOf}
            aria-invalid={errors.asOf ? true : undefined}
            onChange={(e) => setAsOf(e.target.value)}
          />
          <p className="hint">Plays a session as of that date: nothing published after it is used.</p>
          {errors.asOf && (
            <p className="field-error" data-testid="fetch-as-of-error">
              As of {errors.asOf}
            </p>
          )}
        </div>
        <div className="data-actions">
          <button type="submit" className="button primary" data-testid="fetch-run" disabled={run.isPending || !p.enabled || unconfigured}>
            {run.isPending ? 'Fetching…' : 'Run test fetch'}
          </button>
          {form.kind !== 'json' &&
            (asJson ? (
              <button type="button" className="button small" onClick={() => setAsJson(false)}>
                Back to the form
              </button>
            ) : (
              <button type="button" className="button small" onClick={toJson}>
                Write as JSON
              </button>
            ))}
          {!p.enabled && <span className="hint">Switch the source on to test it.</span>}
          {p.enabled && unconfigured && <span className="hint">Set the source up first (see above): the registry refuses a fetch until then.</span>}
        </div>
      </form>
      <div aria-live="polite">
        {run.isError && (
          <p className="data-fetch-error" role="alert" data-testid="fetch-error">
            {readableMessage(run.error)}
          </p>
        )}
        {run.isSuccess && !run.isPending && (
          <section className="data-result" data-testid="fetch-result" aria-label="Test fetch result">
            <dl className="facts data-result-facts">
              <dt>Label</dt>
              <dd data-testid="fetch-label">{run.data.label}</dd>
              <dt>As of</dt>
              <dd data-testid="fetch-as-of-result">{run.data.asOf}</dd>
              <dt>Source</dt>
              <dd data-testid="fetch-source">{run.data.source}</dd>
            </dl>
            <h4>What the analyst reads</h4>
            <p className="data-summary" data-testid="fetch-summary">
              {run.data.summary}
            </p>
            <details className="data-full" open>
              <summary>Full result (stored in the session)</summary>
              <div data-testid="fetch-full">
                <Markdown source={run.data.full} />
              </div>
            </details>
          </section>
        )}
      </div>
    </div>
  );
}
