import { z } from 'zod';

/**
 * Settings → Data → "Your data folder": where the PM's own files are read from, and what Forge
 * made of each (dataset names, columns, dates, the dialect it detected, problems). Pure zod.
 */

export const dataFolderDatasetSchema = z.object({
  /** The name an Expression or the analyst uses: `<dataset>.<column>`. */
  name: z.string(),
  /** The workbook sheet it comes from (.xlsx), else null. */
  sheet: z.string().nullable(),
  columns: z.array(z.string()),
  rows: z.number().int(),
  first: z.string().nullable(),
  last: z.string().nullable(),
});

export const dataFolderFileSchema = z.object({
  file: z.string(),
  /** `folder`: the PM's own file; `sample`: a bundled sample file (the PM's wins a name clash). */
  origin: z.enum(['folder', 'sample']),
  bytes: z.number().int(),
  modified: z.string(),
  datasets: z.array(dataFolderDatasetSchema),
  /** How the file is written: delimiter, decimal comma, date format and its inferred order, header row, encoding, BOM. */
  dialect: z.string().nullable(),
  /** One sentence per problem (which row, which column, why); the rest of the folder still loads. */
  problems: z.array(z.string()),
});

export const dataFolderViewSchema = z.object({
  /** The folder read now (null in the demo workspace, which reads only its sample files). */
  folder: z.string().nullable(),
  /** The folder used when none is set: `<data>/datasets`. */
  defaultFolder: z.string().nullable(),
  /** True when the PM has not picked a folder (the default is in use). */
  isDefault: z.boolean(),
  exists: z.boolean(),
  files: z.array(dataFolderFileSchema),
});
export type DataFolderView = z.infer<typeof dataFolderViewSchema>;

export const dataFolderProcedures = {
  /** The PM's data folder and every file in it (with the sample files), as Forge reads them now. */
  'providers/data-folder': { input: z.object({}).strict(), output: dataFolderViewSchema },
  /**
   * Points the datasets provider at another folder (absolute path; empty: back to the default).
   * Refused with invalid_input unless it exists, is a directory and can be read. Applies at once.
   */
  'providers/set-data-folder': { input: z.object({ folder: z.string().max(1000) }).strict(), output: dataFolderViewSchema },
} as const;
