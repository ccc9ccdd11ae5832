import { useState } from 'react';
import { useProcedure } from '../api/hooks';
import { formatHash } from '../app/routes';

/** Remembered per browser profile: "Not now" on the model offer should not come back on every launch. */
const MODEL_OFFER_DISMISSED = 'forge.home.modelOfferDismissed';

function dismissedBefore(): boolean {
  try {
    return localStorage.getItem(MODEL_OFFER_DISMISSED) === '1';
  } catch {
    return false;
  }
}

/**
 * What a first launch still needs, one click from where it is set: the Anthropic API key (only
 * while none is set) and the local search model, offered with its download size from the pinned
 * manifest. Renders nothing once both are done, so a set-up workspace's Home is unchanged.
 */
export function FirstRunCard() {
  const settings = useProcedure('settings/get', {});
  const info = useProcedure('app/info', {}, { staleTime: Infinity });
  const [modelDismissed, setModelDismissed] = useState(dismissedBefore);
  const needsKey = settings.data ? !settings.data.secrets.anthropicApiKey : false;
  const model = info.data?.build?.parts.find((p) => p.name === 'search model');
  const download = info.data?.build?.modelDownload ?? null;
  const offerModel = model !== undefined && !model.active && download !== null && !modelDismissed;
  if (!needsKey && !offerModel) return null;
  const dismissModel = () => {
    try {
      localStorage.setItem(MODEL_OFFER_DISMISSED, '1');
    } catch {
      // Private mode: the offer just hides for this session.
    }
    setModelDismissed(true);
  };
  return (
    <article className="card home-card home-first-run" data-testid="home-first-run" aria-labelledby="home-first-run-title">
      <header className="home-card-head">
        <h2 id="home-first-run-title">Finish setting up</h2>
      </header>
      <ul className="home-list">
        {needsKey && (
          <li className="first-run-item" data-testid="first-run-key">
            <span className="first-run-text">
              <strong>No Anthropic API key yet.</strong> The analyst needs one to use Claude; until then only the offline demo runs.
            </span>
            <a className="button primary" href={formatHash({ screen: 'settings', rest: ['keys'] })} data-testid="first-run-key-link">
              Add your API key
            </a>
          </li>
        )}
        {offerModel && (
          <li className="first-run-item" data-testid="first-run-model">
            <span className="first-run-text">
              <strong>Search by meaning, not only words.</strong> Download the local search model (
              <span data-testid="first-run-model-size">{download.label}</span>, once; it then runs on this computer).
            </span>
            <a className="button" href={formatHash({ screen: 'settings', rest: ['search'] })} data-testid="first-run-model-link">
              Get the model
            </a>
            <button type="button" className="button small" onClick={dismissModel} data-testid="first-run-model-dismiss">
              Not now
            </button>
          </li>
        )}
      </ul>
    </article>
  );
}
