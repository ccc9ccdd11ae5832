import type { InputHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { plainIssue } from '../api/plain-errors';
import './text-field.css';

/**
 * Free-text inputs that carry their limit and show how much of it is used ("1,840 / 2,000"). They
 * never cut text silently: there is no native maxLength (a paste past it is truncated without a
 * word), so a PM who goes over keeps every character and sees, in plain words, by how much.
 */

/** Limits from the core's input schemas (src-main/api/*.ts), which the renderer may only import as types. */
export const inputLimits = {
  /** memory/list `query` */
  filter: 2000,
  /** agent/send `message` */
  chatMessage: 20_000,
  /** expressions/reject `reason` */
  rejectReason: 300,
  /** proposals/reject `reason` */
  proposalReason: 2000,
  /** settings `displayName` */
  displayName: 80,
  /** settings `timezone` */
  timezone: 64,
} as const;

const count = (n: number) => n.toLocaleString('en-US');

/** "1,840 / 2,000". */
export function counterText(length: number, limit: number): string {
  return `${count(length)} / ${count(limit)}`;
}

/** The plain-words problem when the text is over its limit (the same sentence the core's error becomes), else null. */
export function overLimitMessage(length: number, limit: number, label: string): string | null {
  if (length <= limit) return null;
  const sentence = plainIssue({ path: ['field'], message: '', code: 'too_big', origin: 'string', maximum: limit }, { field: label });
  return `${sentence} (${count(length - limit)} over)`;
}

/** Show the counter always for long-form text, and for short fields once they are half full. */
function showCounter(length: number, limit: number, always: boolean): boolean {
  return always || length >= limit / 2;
}

interface LimitProps {
  /** The field's name in a sentence: "The filter", "Your message". */
  label: string;
  limit: number;
  /** A problem from elsewhere (the server), shown under the field. */
  error?: string | null;
  /** Id stem for the counter and message, so the input can point at them. */
  id: string;
  /** False when the screen already shows the server's (same) sentence for this field: the counter alone turns red. */
  sayOverLimit?: boolean;
}

function LimitFooter(props: LimitProps & { length: number; always: boolean }) {
  const over = overLimitMessage(props.length, props.limit, props.label);
  const message = (props.sayOverLimit === false ? null : over) ?? props.error ?? null;
  const visible = showCounter(props.length, props.limit, props.always) || Boolean(over);
  if (!visible && !message) return null;
  return (
    <span className="limit-footer">
      {message && (
        <span className="field-error" id={`${props.id}-limit-error`} data-testid={`${props.id}-limit-error`} role="alert">
          {message}
        </span>
      )}
      {visible && (
        <span className={over ? 'char-count over' : 'char-count'} id={`${props.id}-count`} data-testid={`${props.id}-count`}>
          {counterText(props.length, props.limit)}
        </span>
      )}
    </span>
  );
}

function describedBy(props: LimitProps & { length: number }, always: boolean, extra?: string): string | undefined {
  const ids = [extra ?? ''];
  if (showCounter(props.length, props.limit, always) || props.length > props.limit) ids.push(`${props.id}-count`);
  if ((props.length > props.limit && props.sayOverLimit !== false) || props.error) ids.push(`${props.id}-limit-error`);
  const joined = ids.filter(Boolean).join(' ');
  return joined || undefined;
}

type NativeInput = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'id' | 'maxLength'>;
type NativeArea = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'onChange' | 'id' | 'maxLength'>;

export function TextInput(props: LimitProps & NativeInput & { value: string; onChange: (value: string) => void }) {
  const { label, limit, error, id, value, onChange, className, sayOverLimit, 'aria-describedby': extra, ...rest } = props;
  const over = value.length > limit;
  return (
    <span className={className ? `limited-field ${className}` : 'limited-field'}>
      <input
        {...rest}
        id={id}
        value={value}
        data-limit={limit}
        aria-invalid={over || error || rest['aria-invalid'] === true ? true : undefined}
        aria-describedby={describedBy({ label, limit, error, id, sayOverLimit, length: value.length }, false, extra)}
        onChange={(e) => onChange(e.target.value)}
      />
      <LimitFooter label={label} limit={limit} error={error} id={id} sayOverLimit={sayOverLimit} length={value.length} always={false} />
    </span>
  );
}

export function TextArea(props: LimitProps & NativeArea & { value: string; onChange: (value: string) => void }) {
  const { label, limit, error, id, value, onChange, className, 'aria-describedby': extra, ...rest } = props;
  const over = value.length > limit;
  return (
    <span className={className ? `limited-field ${className}` : 'limited-field'}>
      <textarea
        {...rest}
        id={id}
        value={value}
        data-limit={limit}
        aria-invalid={over || error || rest['aria-invalid'] === true ? true : undefined}
        aria-describedby={describedBy({ label, limit, error, id, length: value.length }, true, extra)}
        onChange={(e) => onChange(e.target.value)}
      />
      <LimitFooter label={label} limit={limit} error={error} id={id} length={value.length} always />
    </span>
  );
}
