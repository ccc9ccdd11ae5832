export { describeSpecPackage } from './describe';
export { readSpecPackage } from './read';
export type { ReadSpecOptions } from './read';
export { countSpecTokens } from './tokens';
export type { SpecDocument, SpecFormat, SpecPackage, SpecPhase, SpecTask } from './types';
