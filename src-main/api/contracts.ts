import { z } from 'zod';

/**
 * Contracts procedures: the Contracts screen browses and edits Forge's governance contracts (the
 * folder the MCP server serves) or a build project's `Forge/Contracts/`. Every save is validated
 * first, guarded against edits made elsewhere, and keeps the text it replaces as a version.
 * Pure zod: no node, electron or DOM imports.
 */

/** A file name in the contracts folder: no folders, no `..`, only the contract kinds. */
export const contractFileName = z.string().min(1).max(120).describe('A contract file name such as physics.yaml');

/** Whose contracts: Forge's own (neither given), a project folder, or the project of a build. */
export const contractScope = z
  .object({
    /** Absolute path of a project folder holding Forge/Contracts/. */
    projectPath: z.string().min(1).max(4096).optional(),
    /** A build id from the Builds screen: its project's Forge/Contracts/. */
    buildId: z.string().min(1).max(100).optional(),
  })
  .strict();
export type ContractScope = z.infer<typeof contractScope>;

export const contractKind = z.enum(['md', 'json', 'yaml']);
export type ContractKind = z.infer<typeof contractKind>;

export const contractFileView = z.object({
  name: z.string(),
  kind: contractKind,
  bytes: z.number().int().nonnegative(),
  updatedAt: z.string(),
  /** Versions kept in the folder's .versions/ (0 until the first save through Forge). */
  versions: z.number().int().nonnegative(),
  /** What the contract is for, when it is one of Forge's known contracts. */
  brief: z.string().nullable(),
});
export type ContractFileView = z.infer<typeof contractFileView>;

export const contractProblem = z.object({
  /** 1-based line and column of the problem in the text (1:1 when it has no place). */
  line: z.number().int().positive(),
  column: z.number().int().positive(),
  endLine: z.number().int().positive(),
  endColumn: z.number().int().positive(),
  /** Where in the document: `modules.api.mayImport[0]`, or `(syntax)` for a parse error. */
  path: z.string(),
  message: z.string(),
  severity: z.enum(['error', 'warning']),
});
export type ContractProblem = z.infer<typeof contractProblem>;

export const contractVersionView = z.object({
  version: z.number().int().positive(),
  createdAt: z.string(),
  by: z.string(),
  reason: z.string(),
  bytes: z.number().int().nonnegative(),
  hash: z.string(),
  /** True for the version whose text is the file on disk now. */
  current: z.boolean(),
});
export type ContractVersionView = z.infer<typeof contractVersionView>;

/** Largest contract text accepted (the HTTP body limit is 1 MiB). */
export const MAX_CONTRACT_CHARS = 900_000;
const contractText = z.string().max(MAX_CONTRACT_CHARS);

export const contractProcedures = {
  'contracts/list': {
    input: contractScope,
    output: z.object({
      scope: z.enum(['forge', 'project']),
      /** The folder the contracts are read from. */
      folder: z.string(),
      contracts: z.array(contractFileView),
    }),
  },
  'contracts/read': {
    input: contractScope.extend({ name: contractFileName, version: z.number().int().positive().optional() }).strict(),
    output: z.object({
      name: z.string(),
      kind: contractKind,
      text: z.string(),
      /** The version this text is (for an unsaved edit made outside Forge: the number it will be kept as). */
      version: z.number().int().nonnegative(),
      /** sha-256 of the text, the save guard's second half. */
      hash: z.string(),
      updatedAt: z.string(),
    }),
  },
  'contracts/validate': {
    input: z.object({ name: contractFileName, text: contractText }).strict(),
    output: z.object({ valid: z.boolean(), problems: z.array(contractProblem) }),
  },
  'contracts/save': {
    input: contractScope
      .extend({
        name: contractFileName,
        text: contractText,
        /** The version the editor started from; another version on disk means a conflict. */
        expectedVersion: z.number().int().nonnegative(),
        /** The hash read with it: catches an edit outside Forge that left the version number alone. */
        expectedHash: z.string().max(128).optional(),
      })
      .strict(),
    output: z.object({
      name: z.string(),
      /** The version the saved text now is. */
      version: z.number().int().positive(),
      hash: z.string(),
      updatedAt: z.string(),
      /** False when the text was already on disk (nothing written, no version made). */
      changed: z.boolean(),
      /** MCP cache entries dropped, so attached IDEs read the new text at once. */
      cacheEntriesDropped: z.number().int().nonnegative(),
    }),
  },
  'contracts/versions': {
    input: contractScope.extend({ name: contractFileName }).strict(),
    output: z.object({ name: z.string(), versions: z.array(contractVersionView) }),
  },
} as const;
