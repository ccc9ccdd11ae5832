export {
  SkillLoader,
  normaliseSkillName,
  MAX_RESOURCE_BYTES,
  MAX_INLINE_REFERENCE_BYTES,
  type SkillLoaderOptions,
  type SkillEntry,
  type SkillCatalogEntry,
  type LoadedSkill,
  type LoadedSkillWithFiles,
  type SkillsChange,
} from './loader';
export { listSkillFiles, RESOURCE_DIRS, type SkillResource, type SkillResourceKind } from './resources';
export { scriptLanguage, needsScriptPermission, type ScriptLanguage } from './script-kinds';
export { resolveInside } from './confine';
export {
  parseSkillFile,
  splitFrontmatter,
  skillSection,
  bodyHeadings,
  nameProblems,
  KNOWN_FIELDS,
  ANALYST_SKILL_SECTIONS,
  type SkillProblem,
  type SkillProblemSeverity,
  type SkillFrontmatter,
  type SkillValidationMode,
  type ParsedSkillFile,
} from './frontmatter';
export {
  runSkillScript,
  runScriptOfSkill,
  scrubbedEnv,
  permissionFlag,
  SkillScriptError,
  DEFAULT_SCRIPT_TIMEOUT_MS,
  DEFAULT_SCRIPT_OUTPUT_BYTES,
  type RunSkillScriptOptions,
  type SkillScriptResult,
  type SkillScriptFailure,
} from './script-runner';
export type { NodeScriptLaunch, NodeScriptLauncher, StartedProcess } from './node-launcher';
