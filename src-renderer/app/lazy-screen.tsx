import { type ComponentType, lazy } from 'react';

/**
 * A screen loaded the first time it is opened: its code (and what only it uses — Monaco, chart.js)
 * is a separate chunk, so the window's first load carries only the shell and Home.
 */
export function lazyScreen<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(() => load().then((Screen) => ({ default: Screen })));
}

/** What shows for the moment a screen's chunk is on its way (it is local: usually one frame). */
export function ScreenLoading(props: { label: string }) {
  return (
    <section className="screen" aria-busy="true" aria-label={props.label} data-testid="screen-loading">
      <p className="muted pad">Opening {props.label}…</p>
    </section>
  );
}
