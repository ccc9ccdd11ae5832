export { buildLineage } from './build';
export type { LineageOptions } from './build';
export { lineageMarkdown } from './markdown';
export { guardrailFigures, sessionSteps, writerName } from './session-steps';
export type { SkillVersionLookup } from './session-steps';
export { skillVersionLookup } from './skill-versions';
