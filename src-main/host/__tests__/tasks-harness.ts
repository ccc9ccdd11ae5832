import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAgent } from '../../tools/loop';
import { TaskExecutor, type TaskExecutorOptions } from '../../executor';
import { ScriptedSubAgents, type ScriptedSubAgentsOptions } from '../../executor/testing';
import type { ScenarioInput } from '../../llm';
import { SkillLoader } from '../../skills';
import { analystTools, type AnalystTool, type AnalystToolContext } from '../../tools';
import { subAgentToolFactory } from '../../tools/dispatch';
import { openTestWorkspace, type TestWorkspace } from '../../tools/testing';

/** The repository's own analyst skills. */
export const REPO_SKILLS = fileURLToPath(new URL('../../../skills', import.meta.url));

/** A skills root with small test skills (one of them asks for `write`, which sub-agents never get). */
export function testSkillsRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'forge-task-skills-'));
  const skill = (name: string, allowed: string, criteria: string) => {
    mkdirSync(join(root, name), { recursive: true });
    writeFileSync(
      join(root, name, 'SKILL.md'),
      `---\nname: ${name}\ndescription: Test skill ${name} for the executor tests.\nallowed-tools: ${allowed}\n---\n# ${name}\n\n## Output Format\nA SUMMARY section first.\n\n## Procedure\nRead what you need, then answer.\n\n## Eval Criteria\n${criteria}\n`,
    );
  };
  skill('quick-note', 'read', '- Names the View it is about.');
  skill('memory-editor', 'read write dispatch', '- Says what it changed.');
  return root;
}

export const answer = (summary: string, body = 'Details follow.'): ScenarioInput => ({
  turns: [{ reply: { text: `## SUMMARY\n${summary}\n\n## DETAIL\n${body}` } }],
});

export interface Harness {
  tw: TestWorkspace;
  model: ScriptedSubAgents;
  executor: TaskExecutor<AnalystTool, AnalystToolContext>;
  skills: SkillLoader;
  close(): Promise<void>;
}

/** A real seeded workspace, the real agent loop and analyst tools, scripted sub-agents. */
export async function harness(
  scenarios: Record<string, ScenarioInput> | ((key: string) => ScenarioInput | undefined),
  options: {
    model?: ScriptedSubAgentsOptions;
    skillsRoot?: string;
    tw?: TestWorkspace;
    executor?: Partial<TaskExecutorOptions<AnalystTool, AnalystToolContext>>;
  } = {},
): Promise<Harness> {
  const tw = options.tw ?? (await openTestWorkspace());
  const skills = new SkillLoader(options.skillsRoot ?? REPO_SKILLS);
  const model = new ScriptedSubAgents(scenarios, options.model);
  const executor = new TaskExecutor<AnalystTool, AnalystToolContext>({
    db: tw.ws.store.db,
    files: tw.ws.fs,
    skills,
    model,
    runLoop: runAgent,
    toolsFor: subAgentToolFactory({ available: analystTools({ providers: tw.providers }), skills, contextFor: (sid) => tw.context({ sessionId: sid }) }),
    retry: { attempts: 3, baseDelayMs: 5 },
    ...options.executor,
  });
  return {
    tw,
    model,
    executor,
    skills,
    async close() {
      await executor.close();
      skills.close();
      if (!options.tw) tw.close();
    },
  };
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
