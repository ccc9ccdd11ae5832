import { useEffect, useState } from 'react';
import { copyText } from './clipboard';

/**
 * A Copy button that says what happened next to it ("Copied", or how to copy by hand). `text` may
 * be a function so a secret is fetched only when the PM asks for it, never kept on screen.
 */
export function CopyButton(props: { text: string | (() => Promise<string>); label?: string; testId?: string; what: string }) {
  const [state, setState] = useState<'idle' | 'busy' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state !== 'copied' && state !== 'failed') return;
    const t = setTimeout(() => setState('idle'), state === 'copied' ? 2000 : 6000);
    return () => clearTimeout(t);
  }, [state]);

  const onClick = async () => {
    setState('busy');
    try {
      const text = typeof props.text === 'string' ? props.text : await props.text();
      setState((await copyText(text)) ? 'copied' : 'failed');
    } catch {
      setState('failed');
    }
  };

  return (
    <span className="mcp-copy">
      <button
        type="button"
        className="button small"
        data-testid={props.testId}
        onClick={() => void onClick()}
        disabled={state === 'busy'}
        aria-label={`${props.label ?? 'Copy'} ${props.what}`}
      >
        {props.label ?? 'Copy'}
      </button>
      <span className="mcp-copy-status" role="status" aria-live="polite">
        {state === 'copied' && <span className="saved">Copied</span>}
        {state === 'failed' && <span className="field-error">Could not reach the clipboard — select the text and copy it by hand.</span>}
      </span>
    </span>
  );
}
