import type { Envelope } from '../src-main/api/envelope';
import type { EventName, EventPayload } from '../src-main/api/events';
import type { ProcedureInput, ProcedureName, ProcedureOutput } from '../src-main/api/procedures';

/** What the preload exposes as `window.forge` in the Electron renderer. */
export interface ForgeBridge {
  /** `call.session`: on a desk, the signed-in person's session. */
  invoke<N extends ProcedureName>(name: N, input?: ProcedureInput<N>, call?: { session?: string }): Promise<Envelope<ProcedureOutput<N>>>;
  on<E extends EventName>(event: E, callback: (payload: EventPayload<E>) => void): () => void;
}

declare global {
  interface Window {
    forge?: ForgeBridge;
  }
}
