import { z } from 'zod';

/** How fast the demo streams: slow and normal read at a human pace, fast is for tests and the impatient. */
export const demoSpeed = z.enum(['slow', 'normal', 'fast']);

/** Which workspace the app shows: the PM's own, or the demo's sample copy. */
export const demoStatus = z.object({
  demo: z.boolean(),
  /** The demo workspace's temp folder while in demo, else absent. */
  dataDir: z.string().optional(),
  speed: demoSpeed.optional(),
  /** The scripted run started on entering, while it is still running. */
  runId: z.string().optional(),
  sessionId: z.string().optional(),
});

export const demoProcedures = {
  /**
   * Switches the app into a fresh demo workspace (a temp copy of the sample workspace) and starts
   * the scripted analyst run there; every screen then reads the demo workspace until demo/exit.
   */
  'demo/enter': {
    input: z.object({ speed: demoSpeed.optional() }).strict(),
    output: z.object({ runId: z.string(), sessionId: z.string(), turn: z.number().int(), demo: z.literal(true), dataDir: z.string(), speed: demoSpeed }),
  },
  /** Back to the PM's own workspace: stops the demo run, closes the demo workspace and deletes its folder. */
  'demo/exit': { input: z.object({}).strict(), output: z.object({ demo: z.literal(false), removed: z.boolean() }) },
  'demo/status': { input: z.object({}).strict(), output: demoStatus },
} as const;

export const demoEvents = {
  /** The app switched workspaces (into or out of the demo): every screen refetches what it shows. */
  'app/workspace-changed': z.object({ demo: z.boolean() }),
} as const;
