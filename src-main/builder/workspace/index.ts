export { CommandRefusedError, type CommandRefusal, checkArgv, DEFAULT_ALLOWED_COMMANDS, parseCommandLine } from './argv';
export {
  type CommandRun,
  DEFAULT_TIMEOUT_MS,
  formatCommandRun,
  MAX_OUTPUT_BYTES,
  MAX_OUTPUT_CHARS,
  MAX_TIMEOUT_MS,
  type RunCommandOptions,
  runCommand,
  scrubEnv,
} from './commands';
export { type CommandSandbox, commandClassOf, MAX_COMMAND_PROCESSES, type UnconfinedCommandRequest, unconfinedNotice } from './sandboxed';
export { type PathRefusal, resolveInside, WorkspacePathError } from './confine';
export { editProjectFile, listProjectDirectory, readProjectFile, type TextEdit, writeProjectFile } from './files';
export { diffSummary, diffWorkspace, type FileState, snapshotWorkspace, type WorkspaceDiff, type WorkspaceSnapshot, workspaceListing } from './listing';
export { searchCode } from './search';
export { checkSyntax, type SyntaxCheck } from './syntax';
export { detectTestCommand, formatTestRun, parseFailingTests, type RunTestsOptions, runProjectTests, type TestRun } from './test-runs';
export { PROJECT_TOOLS, type ProjectToolContext } from './tools';
export { SKIPPED_DIRS, type WalkedFile, walkFiles } from './walk';
