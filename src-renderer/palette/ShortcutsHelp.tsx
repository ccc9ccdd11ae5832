import { useEffect, useId, useRef } from 'react';
import { shortcuts } from './commands';

/** The `?` overlay: every keyboard shortcut Forge has, in one short table. Esc or Close dismisses it. */
export function ShortcutsHelp(props: { onClose: () => void }) {
  const id = useId();
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    close.current?.focus();
  }, []);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click outside closes the help for the mouse; Esc and Close are the keyboard paths.
    <div
      className="palette-backdrop"
      data-testid="shortcuts-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) props.onClose();
      }}
    >
      <div
        className="palette shortcuts"
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        data-testid="shortcuts-help"
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            props.onClose();
          } else if (e.key === 'Tab') {
            // One control in the dialog: keep focus on it while the dialog is open.
            e.preventDefault();
          }
        }}
      >
        <h2 id={`${id}-title`}>Keyboard shortcuts</h2>
        <table className="shortcuts-table">
          <tbody>
            {shortcuts.map((s) => (
              <tr key={s.keys}>
                <th scope="row">
                  <kbd>{s.keys}</kbd>
                </th>
                <td>{s.does}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="palette-footer">Inside a code or record editor, keys go to the editor (Monaco’s own shortcuts), not to Forge.</p>
        <div className="shortcuts-actions">
          <button type="button" className="button" ref={close} onClick={props.onClose} data-testid="shortcuts-close">
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
