// biome-ignore-all lint/suspicious/noArrayIndexKey: a feed row has no identity but its place in the list; names may be blank or repeated while the PM types.
import { type FormEvent, useState } from 'react';
import { fieldErrors } from '../api/errors';
import { useProcedureMutation } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { checkFeeds, cleanFeeds, type FeedErrors, type FeedRow, feedErrorsFromServer, MAX_FEEDS, sameFeeds } from './feeds';
import type { ProviderView } from './model';

/** The RSS/Atom feeds the news source reads, in order (the first feed carrying a story keeps it). */
export function FeedsEditor(props: { provider: ProviderView; onSaved: (view: ProviderView) => void }) {
  const saved = props.provider.settings.feeds ?? [];
  const [rows, setRows] = useState<FeedRow[]>(saved);
  const [errors, setErrors] = useState<FeedErrors>({});
  const [done, setDone] = useState(false);
  const save = useProcedureMutation('providers/configure');
  const dirty = !sameFeeds(rows, saved);

  const edit = (i: number, patch: Partial<FeedRow>) => {
    setDone(false);
    setRows((old) => old.map((r, n) => (n === i ? { ...r, ...patch } : r)));
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setDone(false);
    const found = checkFeeds(rows);
    setErrors(found);
    if (Object.keys(found).length) return;
    const feeds = cleanFeeds(rows);
    save.mutate(
      { name: props.provider.name, settings: { feeds } },
      {
        onSuccess: (view) => {
          setRows(view.settings.feeds ?? feeds);
          setDone(true);
          props.onSaved(view);
        },
        onError: (err) => setErrors(feedErrorsFromServer(fieldErrors(err, 'settings'))),
      },
    );
  };

  const err = (key: string) => errors[key];
  return (
    <form className="data-feeds" onSubmit={onSubmit} noValidate aria-labelledby={`feeds-${props.provider.name}`} data-testid="news-feeds">
      <h4 id={`feeds-${props.provider.name}`}>Feeds</h4>
      {rows.length === 0 && <p className="hint">No feeds yet: add the RSS or Atom feeds the analyst should read.</p>}
      {rows.length > 0 && (
        <table className="data-table data-feeds-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Address (RSS or Atom)</th>
              <th scope="col">
                <span className="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => (
              <tr key={i} data-testid="feed-row">
                <td className={err(`${i}.name`) ? 'has-error' : undefined}>
                  <input
                    type="text"
                    aria-label={`Feed ${i + 1} name`}
                    data-testid={`feed-name-${i}`}
                    value={row.name}
                    aria-invalid={err(`${i}.name`) ? true : undefined}
                    onChange={(e) => edit(i, { name: e.target.value })}
                  />
                  {err(`${i}.name`) && (
                    <p className="field-error" data-testid={`feed-error-${i}-name`}>
                      Name {err(`${i}.name`)}
                    </p>
                  )}
                </td>
                <td className={err(`${i}.url`) ? 'has-error' : undefined}>
                  <input
                    type="text"
                    aria-label={`Feed ${i + 1} address`}
                    data-testid={`feed-url-${i}`}
                    placeholder="https://…/rss.xml"
                    spellCheck={false}
                    value={row.url}
                    aria-invalid={err(`${i}.url`) ? true : undefined}
                    onChange={(e) => edit(i, { url: e.target.value })}
                  />
                  {err(`${i}.url`) && (
                    <p className="field-error" data-testid={`feed-error-${i}-url`}>
                      Address {err(`${i}.url`)}
                    </p>
                  )}
                </td>
                <td>
                  <button
                    type="button"
                    className="button small"
                    aria-label={`Remove feed ${i + 1}${row.name ? ` (${row.name})` : ''}`}
                    onClick={() => {
                      setDone(false);
                      setErrors({});
                      setRows((old) => old.filter((_, n) => n !== i));
                    }}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {errors.list && (
        <p className="field-error" data-testid="feed-error-list">
          Feeds: {errors.list}
        </p>
      )}
      <div className="data-actions">
        <button
          type="button"
          className="button small"
          data-testid="feed-add"
          disabled={rows.length >= MAX_FEEDS}
          onClick={() => {
            setDone(false);
            setRows((old) => [...old, { name: '', url: '' }]);
          }}
        >
          Add a feed
        </button>
        <button type="submit" className="button primary small" data-testid="feeds-save" disabled={!dirty || save.isPending}>
          {save.isPending ? 'Saving…' : 'Save feeds'}
        </button>
        <span className="form-status" role="status" aria-live="polite">
          {done && !dirty && (
            <span className="saved" data-testid="feeds-saved">
              Feeds saved
            </span>
          )}
        </span>
      </div>
      {save.isError && Object.keys(errors).length === 0 && <ErrorPanel error={save.error} inline />}
    </form>
  );
}
