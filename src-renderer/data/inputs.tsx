import type { ReactNode } from 'react';

/** Labelled select and number inputs of the analytics forms, each with its error beneath. */

export function Choice(props: { id: string; label: string; value: string; onChange: (v: string) => void; children: ReactNode }) {
  return (
    <div className="field data-field">
      <label htmlFor={props.id}>{props.label}</label>
      <select id={props.id} data-testid={props.id} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.children}
      </select>
    </div>
  );
}

export function Num(props: { id: string; label: string; value: string; error?: string; onChange: (v: string) => void }) {
  return (
    <div className={props.error ? 'field data-field has-error' : 'field data-field'}>
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        data-testid={props.id}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        className="num"
        value={props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${props.id}-error` : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.error && (
        <p className="field-error" id={`${props.id}-error`} data-testid={`${props.id}-error`}>
          {props.error}
        </p>
      )}
    </div>
  );
}
