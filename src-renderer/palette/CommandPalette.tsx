import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useClient } from '../api';
import type { Screen } from '../app/routes';
import { runAction } from './actions';
import { filterCommands, insideMonaco, isTypingTarget, type PaletteCommand } from './commands';
import { ShortcutsHelp } from './ShortcutsHelp';
import './palette.css';

type Go = (screen: Screen, rest?: string[]) => void;

/**
 * Ctrl/Cmd+K anywhere outside a Monaco editor: go to a screen, run a main action, or open a record
 * by typing its id. `?` (when not typing) lists the shortcuts. Mounted once, in App.
 */
export function CommandPalette(props: { go: Go }) {
  const client = useClient();
  const [open, setOpen] = useState(false);
  const [help, setHelp] = useState(false);
  /** Where focus was before an overlay opened; it goes back there on close. */
  const returnTo = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      const target = e.target instanceof HTMLElement ? e.target : null;
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
        if (insideMonaco(target)) return;
        e.preventDefault();
        setHelp(false);
        setOpen((was) => {
          if (!was) returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          return !was;
        });
        return;
      }
      if (e.key === '?' && !e.ctrlKey && !e.metaKey && !e.altKey && !isTypingTarget(target)) {
        e.preventDefault();
        returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
        setOpen(false);
        setHelp(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const restoreFocus = () => {
    const el = returnTo.current;
    returnTo.current = null;
    if (el?.isConnected) el.focus();
  };

  const run = (c: PaletteCommand) => {
    setOpen(false);
    restoreFocus();
    if (c.kind === 'screen') props.go(c.screen);
    else if (c.kind === 'record') props.go(c.screen, c.rest);
    else void runAction(c.action, { client, go: props.go });
  };

  return (
    <>
      {open && (
        <PaletteDialog
          onRun={run}
          onClose={() => {
            setOpen(false);
            restoreFocus();
          }}
        />
      )}
      {help && (
        <ShortcutsHelp
          onClose={() => {
            setHelp(false);
            restoreFocus();
          }}
        />
      )}
    </>
  );
}

function PaletteDialog(props: { onRun: (c: PaletteCommand) => void; onClose: () => void }) {
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const items = useMemo(() => filterCommands(query), [query]);
  const ids = useId();
  const listId = `${ids}-list`;
  const optionId = (i: number) => `${ids}-opt-${i}`;
  const current = Math.min(active, Math.max(items.length - 1, 0));

  useEffect(() => {
    document.getElementById(optionId(current))?.scrollIntoView({ block: 'nearest' });
  });

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!items.length) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((current + step + items.length) % items.length);
    } else if (e.key === 'Home' && e.ctrlKey) {
      setActive(0);
    } else if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
      e.preventDefault();
      const c = items[current];
      if (c) props.onRun(c);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      props.onClose();
    } else if (e.key === 'Tab') {
      // The dialog is modal and the input is its only stop: Tab must not wander behind it.
      e.preventDefault();
    }
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click outside closes the palette for the mouse; Esc is the keyboard path.
    <div
      className="palette-backdrop"
      data-testid="palette-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) props.onClose();
      }}
    >
      <div className="palette" role="dialog" aria-modal="true" aria-labelledby={`${ids}-title`} data-testid="palette">
        <h2 id={`${ids}-title`} className="visually-hidden">
          Command palette
        </h2>
        <input
          className="palette-input"
          data-testid="palette-input"
          role="combobox"
          aria-label="Type a command, a screen or a record id such as E-004"
          aria-expanded={items.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={items.length ? optionId(current) : undefined}
          placeholder="Go to a screen, run an action, or type an id (E-004, V-001, SEP-001)…"
          value={query}
          maxLength={200}
          spellCheck={false}
          autoComplete="off"
          // biome-ignore lint/a11y/noAutofocus: the PM just pressed Ctrl+K to type here; focus follows their action.
          autoFocus
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        <div className="palette-list" id={listId} role="listbox" aria-label="Commands" data-testid="palette-list">
          {items.map((c, i) => (
            // Options are chosen with the keyboard from the input (aria-activedescendant), which keeps focus; the click is the pointer path.
            <div
              key={c.key}
              id={optionId(i)}
              role="option"
              tabIndex={-1}
              aria-selected={i === current}
              className={i === current ? 'palette-option active' : 'palette-option'}
              data-testid="palette-option"
              data-key={c.key}
              onMouseMove={() => i !== current && setActive(i)}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => props.onRun(c)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') props.onRun(c);
              }}
            >
              <span className={`palette-kind kind-${c.kind}`}>{c.kind === 'screen' ? 'Screen' : c.kind === 'record' ? 'Record' : 'Action'}</span>
              <span className="palette-label">{c.label}</span>
              <span className="palette-hint">{c.hint}</span>
            </div>
          ))}
        </div>
        {items.length === 0 && (
          <p className="palette-empty" role="status">
            Nothing matches “{query.trim()}”. Try a screen name, an action such as “demo”, or an id like E-004.
          </p>
        )}
        <p className="palette-footer">
          <kbd>↑</kbd> <kbd>↓</kbd> to move · <kbd>Enter</kbd> to run · <kbd>Esc</kbd> to close · <kbd>?</kbd> for all shortcuts
        </p>
      </div>
    </div>
  );
}
