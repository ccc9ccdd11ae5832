import type { ReactNode } from 'react';
import type { FormField } from './schema-form';

/** The inputs of one parameter form: each labelled by its name, its description as the hint, its error beneath. */
export function ParamsFields(props: {
  idPrefix: string;
  fields: FormField[];
  values: Record<string, string>;
  errors: Record<string, string>;
  onChange: (name: string, value: string) => void;
}) {
  if (props.fields.length === 0) return <p className="hint">This source takes no parameters.</p>;
  return (
    <div className="data-fields">
      {props.fields.map((f) => (
        <ParamField
          key={f.name}
          id={`${props.idPrefix}-${f.name}`}
          field={f}
          value={props.values[f.name] ?? ''}
          error={props.errors[f.name]}
          onChange={(v) => props.onChange(f.name, v)}
        />
      ))}
    </div>
  );
}

function ParamField(props: { id: string; field: FormField; value: string; error?: string; onChange: (v: string) => void }) {
  const { field, id } = props;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [field.hint ? hintId : '', props.error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    'data-testid': `param-${field.name}`,
    'aria-invalid': props.error ? true : undefined,
    'aria-describedby': describedBy,
    'aria-required': field.required || undefined,
  };
  let input: ReactNode;
  if (field.kind === 'enum' || field.kind === 'boolean') {
    input = (
      <select {...common} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">{field.required ? 'Choose…' : field.placeholder ? `— (default ${field.placeholder})` : '—'}</option>
        {(field.options ?? []).map((o) => (
          <option key={String(o)} value={String(o)}>
            {String(o)}
          </option>
        ))}
      </select>
    );
  } else if (field.kind === 'json' && field.multiline) {
    input = (
      <textarea
        {...common}
        className="data-json"
        rows={4}
        spellCheck={false}
        placeholder={field.placeholder}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    );
  } else {
    const numeric = field.kind === 'number' || field.kind === 'integer';
    input = (
      <input
        {...common}
        type="text"
        inputMode={numeric ? 'decimal' : undefined}
        spellCheck={false}
        autoComplete="off"
        placeholder={field.placeholder}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    );
  }
  return (
    <div className={props.error ? 'field data-field has-error' : 'field data-field'}>
      <label htmlFor={id}>
        <code>{field.name}</code>
        {field.required ? <span className="data-required"> required</span> : null}
      </label>
      {input}
      {field.hint && (
        <p className="hint" id={hintId}>
          {field.hint}
        </p>
      )}
      {props.error && (
        <p className="field-error" id={errorId} data-testid={`param-error-${field.name}`}>
          {field.name} {props.error}
        </p>
      )}
    </div>
  );
}
