import { useRef, type KeyboardEvent } from 'react';
import { formatHash, type Screen } from './routes';
import { screenInfo } from './screens';
import { PendingBadge } from '../proposals/PendingBadge';
import { AwaitingBadge } from '../home/AwaitingBadge';
import { Icon } from './Icon';
import { useIsDesk } from '../desk/status';

const groups: { label: string; items: Screen[] }[] = [
  { label: 'Analyst', items: ['home', 'chat', 'views', 'expressions', 'tasks'] },
  // The learning loop: skill edits from lessons, how well confidence matches results, and the runs that feed both.
  { label: 'Learning', items: ['proposals', 'calibration', 'schedule'] },
  { label: 'Build', items: ['builds', 'contracts', 'skills'] },
  { label: 'Book', items: ['portfolio', 'data'] },
  { label: 'System', items: ['mcp', 'desk', 'settings'] },
];

export function Sidebar(props: { current: Screen; displayName?: string }) {
  const nav = useRef<HTMLElement>(null);
  // The Desk entry shows only on a server run for a desk (desk/status); a PM's own Forge has no desk.
  const isDesk = useIsDesk();
  const shown = isDesk ? groups : groups.map((g) => ({ ...g, items: g.items.filter((s) => s !== 'desk') }));

  // Arrow keys move between screens like a menu; Tab still leaves the sidebar in one step.
  const onKeyDown = (e: KeyboardEvent) => {
    const links = Array.from(nav.current?.querySelectorAll<HTMLAnchorElement>('a[data-nav]') ?? []);
    const at = links.indexOf(document.activeElement as HTMLAnchorElement);
    let next = -1;
    if (e.key === 'ArrowDown') next = (at + 1) % links.length;
    else if (e.key === 'ArrowUp') next = (at - 1 + links.length) % links.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = links.length - 1;
    if (next >= 0) {
      e.preventDefault();
      links[next]?.focus();
    }
  };

  return (
    <nav className="sidebar" aria-label="Screens" ref={nav} onKeyDown={onKeyDown}>
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">
          F
        </span>
        <span className="brand-text">
          <span className="brand-name">Forge</span>
          <span className="brand-sub">{props.displayName ? props.displayName : 'Macro workbench'}</span>
        </span>
      </div>
      {shown.map((g) => (
        <div className="nav-group" key={g.label}>
          <div className="nav-group-label" aria-hidden="true">
            {g.label}
          </div>
          <ul>
            {g.items.map((s) => {
              const info = screenInfo[s];
              const active = s === props.current;
              return (
                <li key={s}>
                  <a
                    data-nav
                    data-testid={`nav-${s}`}
                    href={formatHash({ screen: s })}
                    className={active ? 'nav-item active' : 'nav-item'}
                    aria-current={active ? 'page' : undefined}
                    tabIndex={active ? 0 : -1}
                    title={info.purpose}
                  >
                    <Icon name={s} />
                    <span>{info.label}</span>
                    {s === 'expressions' && <AwaitingBadge />}
                    {s === 'proposals' && <PendingBadge />}
                    {!info.built && <span className="nav-soon" role="img" aria-label="(coming later)" />}
                  </a>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
}
