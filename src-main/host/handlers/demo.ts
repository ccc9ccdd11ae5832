import { AppError } from '../../common/errors';
import type { Handler, PartialHandlerMap } from './types';

/** What the demo procedures need: the workspace switch (host/workspace-switch.ts) implements it. */
export interface DemoControl {
  enter(speed?: 'slow' | 'normal' | 'fast'): ReturnType<Handler<'demo/enter'>>;
  exit(): ReturnType<Handler<'demo/exit'>>;
  status(): ReturnType<Handler<'demo/status'>>;
}

/** The demo procedures as the workspace switch answers them (it owns both workspaces). */
export function demoHandlers(control: DemoControl): PartialHandlerMap {
  return {
    'demo/enter': (i) => control.enter(i.speed),
    'demo/exit': () => control.exit(),
    'demo/status': () => control.status(),
  };
}

/**
 * A core on its own (tests, one-shot CLI commands) has no second workspace to switch to: it says
 * whether it is itself the demo workspace, and refuses to switch with a reason.
 */
export function standaloneDemoHandlers(isDemo: boolean): PartialHandlerMap {
  const noSwitch = () => {
    throw new AppError('unavailable', 'Switching into the demo workspace needs the running app (the desktop app or `forge serve`).');
  };
  return {
    'demo/enter': noSwitch,
    'demo/exit': noSwitch,
    'demo/status': () => ({ demo: isDemo }),
  };
}
