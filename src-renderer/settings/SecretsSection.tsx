import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ProcedureOutput } from '../../src-main/api';
import { procedureKey, useProcedureMutation } from '../api/hooks';
import { readableMessage } from '../api/errors';

type SettingsView = ProcedureOutput<'settings/get'>;
type SecretName = keyof SettingsView['secrets'];

const secretInfo: { name: SecretName; label: string; hint: string }[] = [
  { name: 'anthropicApiKey', label: 'Anthropic API key', hint: 'Lets the analyst use Claude. Without it only the offline demo runs.' },
  { name: 'voyageApiKey', label: 'Voyage API key', hint: 'Optional: semantic embeddings for search (voyage-3-lite).' },
  { name: 'openaiApiKey', label: 'OpenAI-compatible API key', hint: 'Optional: embeddings from an OpenAI-compatible endpoint.' },
  { name: 'fredApiKey', label: 'FRED API key', hint: 'Optional: economic data from FRED (free at fred.stlouisfed.org).' },
  { name: 'alphaVantageApiKey', label: 'Alpha Vantage API key', hint: 'Optional: market prices (FX, US equities, oil) and US Treasury yields.' },
  { name: 'braveApiKey', label: 'Brave Search API key', hint: 'Optional: lets the analyst search the web (Brave Search API). Reading a page needs no key.' },
  { name: 'polygonApiKey', label: 'Polygon API key', hint: 'Optional: daily bars from Polygon.io aggregates (market data).' },
];

/** API keys go in, never come out: the renderer only ever learns whether each one is set. */
export function SecretsSection(props: { view: SettingsView }) {
  return (
    <section className="card" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <p className="hint">{props.view.secretStorage}</p>
      <div className="secrets">
        {secretInfo.map((s) => (
          <SecretRow key={s.name} {...s} isSet={Boolean(props.view.secrets[s.name])} />
        ))}
      </div>
    </section>
  );
}

function SecretRow(props: { name: SecretName; label: string; hint: string; isSet: boolean }) {
  const queryClient = useQueryClient();
  const save = useProcedureMutation('settings/set');
  const [value, setValue] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const id = `secret-${props.name}`;

  const send = (secret: string, message: string) => {
    setDone(null);
    save.mutate(
      { secrets: { [props.name]: secret } },
      {
        onSuccess: (next) => {
          queryClient.setQueryData(procedureKey('settings/get', {}), next);
          setValue('');
          setDone(message);
        },
      },
    );
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (value.trim()) send(value.trim(), 'Key saved');
  };

  return (
    <form className="secret-row" onSubmit={onSubmit} aria-label={props.label}>
      <div className="secret-head">
        <label htmlFor={id}>{props.label}</label>
        <span
          className={props.isSet ? 'badge badge-ok' : 'badge'}
          data-testid={`secret-status-${props.name}`}
          role="img"
          aria-label={`${props.label} is ${props.isSet ? 'set' : 'not set'}`}
        >
          {props.isSet ? 'Set' : 'Not set'}
        </span>
      </div>
      <div className="secret-controls">
        <input
          id={id}
          data-testid={`secret-${props.name}`}
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder={props.isSet ? 'Enter a new key to replace the stored one' : 'Paste the key'}
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            setDone(null);
          }}
          aria-describedby={`${id}-hint`}
        />
        <button type="submit" className="button" data-testid={`secret-save-${props.name}`} disabled={!value.trim() || save.isPending}>
          Save
        </button>
        <button
          type="button"
          className="button danger"
          data-testid={`secret-clear-${props.name}`}
          disabled={!props.isSet || save.isPending}
          onClick={() => send('', 'Key cleared')}
        >
          Clear
        </button>
      </div>
      <p className="hint" id={`${id}-hint`}>
        {props.hint}
      </p>
      <p aria-live="polite" className="secret-status">
        {done && <span className="saved">✓ {done}</span>}
        {save.error && <span className="field-error">{readableMessage(save.error)}</span>}
      </p>
    </form>
  );
}
