import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../tools/define';
import { formatCommandRun, runCommand } from './commands';
import type { CommandSandbox } from './sandboxed';
import { editProjectFile, listProjectDirectory, readProjectFile, writeProjectFile } from './files';
import { formatSearch, searchCode } from './search';
import { checkSyntax, formatSyntaxCheck } from './syntax';
import { formatTestRun, runProjectTests, type TestRun } from './test-runs';

/**
 * The builder's eight project tools, each declared once. Every description and field is paid on
 * every turn of a build (the whole fixed context is budgeted at 5,000 tokens), so they stay terse.
 */

export interface ProjectToolContext {
  /** The build's working directory; every path is confined to it. */
  workDir: string;
  /** Programs run_command and run_tests may start (see DEFAULT_ALLOWED_COMMANDS). */
  allowedCommands: readonly string[];
  signal?: AbortSignal;
  /** How run_tests and run_command are confined (the build's network switch, the PM's consent where no sandbox exists). */
  sandbox?: CommandSandbox;
  /** Told of every run_tests result, so the build records each run. */
  onTestRun?: (run: TestRun) => void;
}

const path = z.string().min(1).max(1000);
// Ranges are checked by refine, which the JSON Schema the model reads does not carry: validation stays, tokens go.
const between = (lo: number, hi: number, what: string) =>
  z
    .number()
    .int()
    .refine((n) => n >= lo && n <= hi, `${what} must be ${lo}-${hi}`);
const timeout = between(1, 600, 'timeout (seconds)').optional().describe('seconds, default 120');

const readFile = defineTool({
  name: 'read_file',
  description: 'Read a text file (path relative to the project root); offset (first line, 1-based) and limit page long files.',
  input: z.object({ path, offset: between(1, Number.MAX_SAFE_INTEGER, 'offset').optional(), limit: between(1, 100_000, 'limit').optional() }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run(input, ctx: ProjectToolContext) {
    return { content: await readProjectFile(ctx.workDir, input.path, input) };
  },
});

const listDirectory = defineTool({
  name: 'list_directory',
  description: 'List a folder as a tree (default: project root, depth 2); dependency and build folders are not expanded.',
  input: z.object({ path: path.optional(), depth: between(1, 6, 'depth').optional() }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run(input, ctx: ProjectToolContext) {
    return { content: await listProjectDirectory(ctx.workDir, input.path, input.depth) };
  },
});

const searchCodeTool = defineTool({
  name: 'search_code',
  description: 'Search project files for a regex (or literal text); glob filters paths, e.g. src/**/*.ts. Returns path:line: text.',
  input: z.object({
    pattern: z.string().min(1).max(1000),
    glob: z.string().max(500).optional(),
    literal: z.boolean().optional(),
    ignore_case: z.boolean().optional(),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run(input, ctx: ProjectToolContext) {
    const outcome = await searchCode(ctx.workDir, { pattern: input.pattern, glob: input.glob, literal: input.literal, ignoreCase: input.ignore_case });
    return { content: formatSearch(outcome, input) };
  },
});

const writeFile = defineTool({
  name: 'write_file',
  description: 'Create or overwrite a file with the full content; folders are created. Forge/ and .git/ are read-only.',
  input: z.object({ path, content: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run(input, ctx: ProjectToolContext) {
    const w = await writeProjectFile(ctx.workDir, input.path, input.content);
    return { content: `Wrote ${w.path} (${w.created ? 'new file' : 'replaced'}, ${w.lines} lines).` };
  },
});

const editFile = defineTool({
  name: 'edit_file',
  description: 'Replace exact text in a file. Each old_text must occur exactly once (after earlier edits); all edits apply or none.',
  input: z.object({
    path,
    edits: z
      .array(z.object({ old_text: z.string().min(1), new_text: z.string() }))
      .min(1)
      .max(50),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(input, ctx: ProjectToolContext) {
    const e = await editProjectFile(ctx.workDir, input.path, input.edits);
    return { content: `Edited ${e.path}: ${e.applied} edit${e.applied === 1 ? '' : 's'} applied; it now has ${e.lines} lines.` };
  },
});

const runTests = defineTool({
  name: 'run_tests',
  description: 'Run the tests: command, or detected (npm test, pytest, go test). Returns pass/fail, failing tests and output.',
  input: z.object({ command: z.string().min(1).max(2000).optional(), timeout }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async run(input, ctx: ProjectToolContext) {
    const run = await runProjectTests(ctx.workDir, {
      command: input.command,
      timeoutMs: input.timeout ? input.timeout * 1000 : undefined,
      allowedCommands: ctx.allowedCommands,
      signal: ctx.signal,
      sandbox: ctx.sandbox,
    });
    ctx.onTestRun?.(run);
    return { content: formatTestRun(run) };
  },
});

const checkSyntaxTool = defineTool({
  name: 'check_syntax',
  description: 'Check one file for syntax errors (TS/JS, JSON, YAML, Python); reports line:column.',
  input: z.object({ file_path: path }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async run(input, ctx: ProjectToolContext) {
    return { content: formatSyntaxCheck(await checkSyntax(ctx.workDir, input.file_path)) };
  },
});

const runCommandTool = defineTool({
  name: 'run_command',
  description:
    'Run one allowed program (npm, node, python3, pytest, go, git …) in the project root, without a shell: no pipes, redirects, $vars or globs. Sandboxed: no network unless the PM allows it.',
  input: z.object({ command: z.string().min(1).max(4000), timeout }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  async run(input, ctx: ProjectToolContext) {
    const run = await runCommand(ctx.workDir, input.command, {
      allowedCommands: ctx.allowedCommands,
      timeoutMs: input.timeout ? input.timeout * 1000 : undefined,
      signal: ctx.signal,
      sandbox: ctx.sandbox,
    });
    return { content: formatCommandRun(run), isError: run.exitCode !== 0 };
  },
});

/** The eight project tools, in the order the system prompt lists them. */
export const PROJECT_TOOLS: readonly ToolDefinition<z.ZodType, ProjectToolContext>[] = [
  readFile,
  listDirectory,
  searchCodeTool,
  writeFile,
  editFile,
  runTests,
  checkSyntaxTool,
  runCommandTool,
] as ToolDefinition<z.ZodType, ProjectToolContext>[];
