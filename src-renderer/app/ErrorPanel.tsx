import type { ReactNode } from 'react';
import { errorHeadline, readableMessage } from '../api/errors';

/**
 * How every screen shows a failed request: a headline, the message in the PM's words, and a way
 * forward (Try again, or whatever `children` offer). Never a stack trace.
 */
export function ErrorPanel(props: { error: unknown; onRetry?: () => void; inline?: boolean; testId?: string; children?: ReactNode }) {
  return (
    <div className={props.inline ? 'error-panel inline' : 'error-panel'} role="alert" data-testid={props.testId}>
      <strong>{errorHeadline(props.error)}.</strong> {readableMessage(props.error)}
      {props.onRetry && (
        <>
          {' '}
          <button type="button" className="button small" onClick={props.onRetry}>
            Try again
          </button>
        </>
      )}
      {props.children}
    </div>
  );
}
