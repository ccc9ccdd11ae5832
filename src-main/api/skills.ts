import { z } from 'zod';

/**
 * Skills procedures: the analyst's skills as the Skills screen reads them — every skill folder
 * with its validation state, and one file of a skill at a time. Read-only: edits arrive as
 * skill-edit proposals. The one setting per skill (may it run Python and shell scripts) is set
 * here too. Pure zod: no node, electron or DOM imports.
 */

export const skillProblemView = z.object({
  /** Path relative to the skill folder (`SKILL.md`, `references/guide.md`). */
  file: z.string(),
  /** Frontmatter field (`name`, `metadata.owner`, ...), or `frontmatter` / `body` / `SKILL.md`. */
  field: z.string(),
  severity: z.enum(['error', 'warning']),
  message: z.string(),
});
export type SkillProblemView = z.infer<typeof skillProblemView>;

export const skillFileView = z.object({
  /** Relative to the skill folder, always with `/`: `templates/output.md`. */
  path: z.string(),
  bytes: z.number().int().nonnegative(),
});
export type SkillFileView = z.infer<typeof skillFileView>;

/** `valid`: no problems; `warnings`: usable, with warnings; `errors`: the analyst cannot use it until fixed. */
export const skillState = z.enum(['valid', 'warnings', 'errors']);
export type SkillState = z.infer<typeof skillState>;

export const skillView = z.object({
  /** The folder name: the key the skill is found under, even when its frontmatter is broken. */
  name: z.string(),
  description: z.string(),
  allowedTools: z.array(z.string()),
  license: z.string().nullable(),
  compatibility: z.string().nullable(),
  metadata: z.record(z.string(), z.string()),
  /** True when the skill has no error-level problems (warnings allowed). */
  valid: z.boolean(),
  state: skillState,
  /**
   * Its Python and shell scripts: `none` when it has none; else whether the PM allowed them to run
   * (in a sandbox) in Settings → Skills. Node `.mjs` scripts need no permission.
   */
  scriptPermission: z.enum(['none', 'allowed', 'not-allowed']),
  problems: z.array(skillProblemView),
  files: z.object({
    templates: z.array(skillFileView),
    references: z.array(skillFileView),
    scripts: z.array(skillFileView),
    assets: z.array(skillFileView),
    /** Any further file beside SKILL.md (a LICENSE, a loose reference). */
    other: z.array(skillFileView),
  }),
});
export type SkillView = z.infer<typeof skillView>;

/** Folder names only: letters, digits, hyphens and the seed's underscores. */
export const skillName = z
  .string()
  .min(1)
  .max(80)
  .regex(/^[A-Za-z0-9_-]+$/, 'a skill name has only letters, digits, hyphens and underscores');

export const skillsReadInput = z
  .object({
    name: skillName,
    /** Relative to the skill folder: `SKILL.md`, `references/calibration.md`. */
    path: z.string().min(1).max(500),
  })
  .strict();

export const skillsAllowScriptsInput = z
  .object({
    name: skillName,
    /** true: the skill's Python and shell scripts may run (sandboxed); false: they are refused. */
    allow: z.boolean(),
  })
  .strict();

export const skillProcedures = {
  'skills/list': {
    input: z.object({}).strict(),
    output: z.object({
      skills: z.array(skillView),
      /** `strict`: unknown frontmatter keys are errors; `lenient`: warnings. */
      mode: z.enum(['strict', 'lenient']),
    }),
  },
  'skills/read': {
    input: skillsReadInput,
    output: z.object({
      name: z.string(),
      path: z.string(),
      bytes: z.number().int().nonnegative(),
      /** The file's text; empty when `binary`. */
      text: z.string(),
      /** A picture or other non-text asset: shown as a note, not as text. */
      binary: z.boolean(),
    }),
  },
  /** Settings → Skills: let one skill run its Python and shell scripts, or stop it. Saved in the settings file. */
  'skills/allow-scripts': {
    input: skillsAllowScriptsInput,
    output: skillView,
  },
} as const;
