import { z } from 'zod';

/** Where the workspace stands with the sample it was started from (fs/sample.ts). */
export const sampleStateSchema = z.enum(['untouched', 'in-use', 'cleared', 'none']);

export const workspaceProcedures = {
  /**
   * Whether this workspace still holds only the untouched sample it was started with (Home offers
   * "Start empty" then). The demo workspace always answers `none`: it is a sample by design.
   */
  'workspace/sample': {
    input: z.object({}).strict(),
    output: z.object({ state: sampleStateSchema, sampleRecords: z.number().int().nonnegative(), reason: z.string().optional() }),
  },
  /**
   * Removes the sample records (one transaction, archived, audited as the PM) and recomputes the
   * calibration files; /portfolio stays. Refused (conflict) once the workspace is in use, and in demo.
   */
  'workspace/clear-sample': {
    input: z.object({}).strict(),
    output: z.object({ removed: z.array(z.string()), recalibrated: z.array(z.string()), kept: z.array(z.string()), message: z.string() }),
  },
} as const;
