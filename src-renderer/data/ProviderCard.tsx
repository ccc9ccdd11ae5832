import { type FormEvent, useEffect, useState } from 'react';
import { fieldErrors } from '../api/errors';
import { useProcedureMutation } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { formatHash } from '../app/routes';
import { FeedsEditor } from './FeedsEditor';
import { checkBaseUrl, healthLine, keyLabel, type ProviderView, takesBaseUrl } from './model';
import { TestFetch } from './TestFetch';

/** One data source: what it serves, on or off, healthy or why not, its key and settings, and a test fetch. */
export function ProviderCard(props: { provider: ProviderView; onChanged: (view: ProviderView) => void }) {
  const p = props.provider;
  const toggle = useProcedureMutation('providers/configure');
  const enabled = toggle.isPending ? Boolean(toggle.variables?.settings.enabled) : p.enabled;
  const health = healthLine({ enabled, health: p.health });
  const titleId = `provider-${p.name}-title`;

  return (
    <article className="card data-provider" data-testid={`provider-${p.name}`} aria-labelledby={titleId}>
      <header className="data-provider-head">
        <h3 id={titleId}>{p.name}</h3>
        <span className={`data-health is-${health.tone}`} data-testid="provider-health">
          {health.label}
        </span>
        <label className="data-switch">
          <input
            type="checkbox"
            role="switch"
            checked={enabled}
            aria-checked={enabled}
            disabled={toggle.isPending}
            data-testid="provider-enabled"
            onChange={(e) => toggle.mutate({ name: p.name, settings: { enabled: e.target.checked } }, { onSuccess: props.onChanged })}
          />
          <span className="data-switch-track" aria-hidden="true" />
          <span>{enabled ? 'On' : 'Off'}</span>
        </label>
      </header>
      <p className="data-description" data-testid="provider-description">
        {p.description}
      </p>
      {health.detail && (
        <p className={`data-health-detail is-${health.tone}`} data-testid="provider-health-detail">
          {health.detail}
        </p>
      )}
      {toggle.isError && <ErrorPanel error={toggle.error} inline />}

      <dl className="facts data-provider-facts">
        <dt>API key</dt>
        <dd data-testid="provider-key">
          {p.secret === null ? (
            'None needed'
          ) : (
            <>
              {keyLabel(p.secret)}{' '}
              <span className={p.secretSet ? 'badge badge-ok' : 'badge'} data-testid="provider-key-status">
                {p.secretSet ? 'Set' : 'Not set'}
              </span>{' '}
              <a href={formatHash({ screen: 'settings' })} data-testid="provider-key-link">
                {p.secretSet ? 'Change it in Settings → API keys' : 'Add it in Settings → API keys'}
              </a>
            </>
          )}
        </dd>
      </dl>

      <ShareWithIdes provider={p} onSaved={props.onChanged} />
      {takesBaseUrl(p) && <BaseUrlForm provider={p} onSaved={props.onChanged} />}
      {p.name === 'news' && <FeedsEditor provider={p} onSaved={props.onChanged} />}

      <details className="data-disclosure">
        <summary data-testid="test-fetch-open">Test fetch</summary>
        <TestFetch provider={p} />
      </details>
    </article>
  );
}

/**
 * Whether attached IDEs (the MCP server's forge_fetch) may fetch from this source. Off unless the PM
 * turns it on; keys stay in Forge and what comes back is marked as outside content.
 */
function ShareWithIdes(props: { provider: ProviderView; onSaved: (view: ProviderView) => void }) {
  const p = props.provider;
  const save = useProcedureMutation('providers/configure');
  // The PM's choice holds on screen until the list read back agrees: a list refetch that started before
  // the save (the data folder's refreshes) must not flip the box back for a moment.
  const [wanted, setWanted] = useState<boolean | null>(null);
  const stored = p.settings.shareWithMcp === true;
  useEffect(() => {
    if (wanted !== null && wanted === stored && !save.isPending) setWanted(null);
  }, [wanted, stored, save.isPending]);
  const shared = wanted ?? stored;
  const id = `share-mcp-${p.name}`;
  return (
    <div className="field data-share-mcp">
      <label htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          checked={shared}
          disabled={save.isPending}
          aria-describedby={`${id}-hint`}
          data-testid="provider-share-mcp"
          onChange={(e) => {
            const next = e.target.checked;
            setWanted(next);
            save.mutate({ name: p.name, settings: { shareWithMcp: next } }, { onSuccess: props.onSaved, onError: () => setWanted(null) });
          }}
        />{' '}
        Attached IDEs may fetch from this source
      </label>
      <p className="hint" id={`${id}-hint`}>
        {p.enabled ? '' : 'The source is off, so nothing is fetched even when this is on. '}
        An IDE attached to Forge's MCP server can then fetch from it (forge_fetch), under the same as-of cut; what comes back is marked as outside data and your
        keys stay in Forge. Off unless you turn it on.
      </p>
      {save.isError && <ErrorPanel error={save.error} inline />}
    </div>
  );
}

/** Where the vendor's API lives (a proxy, a mirror); empty means the vendor's own address. */
function BaseUrlForm(props: { provider: ProviderView; onSaved: (view: ProviderView) => void }) {
  const p = props.provider;
  const saved = p.settings.baseUrl ?? '';
  const [value, setValue] = useState(saved);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const save = useProcedureMutation('providers/configure');
  const id = `baseurl-${p.name}`;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setDone(false);
    const bad = checkBaseUrl(value);
    setError(bad);
    if (bad) return;
    save.mutate(
      { name: p.name, settings: { baseUrl: value.trim() } },
      {
        onSuccess: (view) => {
          setValue(view.settings.baseUrl ?? '');
          setDone(true);
          props.onSaved(view);
        },
        onError: (err) => setError(fieldErrors(err, 'settings').baseUrl ?? null),
      },
    );
  };

  return (
    <form className="data-baseurl" onSubmit={onSubmit} noValidate>
      <div className={error ? 'field data-field has-error' : 'field data-field'}>
        <label htmlFor={id}>Base URL</label>
        <div className="data-inline">
          <input
            id={id}
            type="text"
            data-testid="provider-base-url"
            placeholder="the vendor's own address"
            spellCheck={false}
            value={value}
            aria-invalid={error ? true : undefined}
            onChange={(e) => {
              setDone(false);
              setValue(e.target.value);
            }}
          />
          <button type="submit" className="button small" disabled={save.isPending || value.trim() === saved}>
            Save
          </button>
        </div>
        <p className="hint">Point the source at a proxy or mirror; leave empty for the vendor's own API.</p>
        {error && (
          <p className="field-error" data-testid="provider-base-url-error">
            Base URL {error}
          </p>
        )}
        <p className="form-status" role="status" aria-live="polite">
          {done && <span className="saved">Saved</span>}
        </p>
      </div>
      {save.isError && !error && <ErrorPanel error={save.error} inline />}
    </form>
  );
}
