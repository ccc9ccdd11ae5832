import { useRef } from 'react';
import { PlainView } from '../skills/CodeViewer';
import { useMonacoDiff } from '../skills/use-monaco-diff';

/**
 * A kept version of a contract beside the text in the editor, in Monaco's diff editor (read-only:
 * the PM copies back what they want). Falls back to two plain columns if Monaco cannot load.
 */
export function ContractDiff(props: { original: string; modified: string; language: string; originalLabel: string; modifiedLabel: string }) {
  const host = useRef<HTMLDivElement>(null);
  const { engine } = useMonacoDiff(host, {
    original: props.original,
    modified: props.modified,
    language: props.language,
    ariaLabel: `${props.originalLabel} beside ${props.modifiedLabel}`,
    originalAriaLabel: props.originalLabel,
    modifiedAriaLabel: props.modifiedLabel,
    fontSize: 12,
  });

  return (
    <div className="contract-diff" data-testid="contract-diff" data-engine={engine}>
      <div className="contract-diff-heads">
        <span>{props.originalLabel}</span>
        <span>{props.modifiedLabel}</span>
      </div>
      {engine !== 'plain' && <div className="contract-diff-monaco" ref={host} aria-busy={engine === 'loading'} />}
      {engine === 'plain' && (
        <div className="contract-diff-plain">
          <PlainView text={props.original} path={props.originalLabel} note={null} />
          <PlainView text={props.modified} path={props.modifiedLabel} note={null} />
        </div>
      )}
    </div>
  );
}
