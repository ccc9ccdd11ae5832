import { limitsInForce } from '../../tools';
import type { PartialHandlerMap } from './types';

/** The limits the write tool and approval check against, read from the same place they read them. */
export const guardrailHandlers: PartialHandlerMap = {
  'guardrails/limits': async (_input, ctx) => {
    await ctx.memory.ready;
    const fs = ctx.memory.fs;
    return limitsInForce(fs.exists('/portfolio/constraints.md') ? fs.readFile('/portfolio/constraints.md') : null);
  },
};
