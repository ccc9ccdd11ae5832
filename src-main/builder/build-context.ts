import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import type { BuildMode } from '../api/builds';
import type { SystemBlock } from '../llm/types';
import { builderSystemPrompt, LocalSource, McpSession, packageWindow, phaseWindow, type ProjectStore, Scratchpad, SCRATCHPAD_FILE } from '../mcp';
import { readSpecPackage, type SpecPackage } from '../specs';
import { toModelTool, type ToolDefinition } from '../tools/define';
import type { BuilderDeps } from './build-host';
import { forgeTools, type ForgeToolHost } from './forge-tools';
import { type WindowGateHost, withWindowGate } from './phase-gate';
import { readBuildPackage } from './prepare';
import type { BuildRun, RunnerState } from './store-rows';
import { countBuilderContext } from './tokens';
import { PROJECT_TOOLS, type ProjectToolContext } from './workspace';

/**
 * What a build works from, read the same way by the lifecycle (runner.ts), one turn (turn.ts),
 * the sign-off (sign-off.ts) and compaction (compact-run.ts): its tools and system prompt, its plan
 * and phase windows, the forge tools' context and the scratchpad. Pure reads over a BuildRun, no state.
 */

export type BuilderTool = ToolDefinition<z.ZodType, ProjectToolContext & ForgeToolHost & WindowGateHost>;

const toolSets = new Map<BuildMode, BuilderTool[]>();
/** The builder's tools: 8 project tools + the forge tools of its mode (declared once, built once). */
export function toolsFor(mode: BuildMode): BuilderTool[] {
  let t = toolSets.get(mode);
  if (!t) {
    t = withWindowGate([...(PROJECT_TOOLS as unknown as BuilderTool[]), ...(forgeTools(mode) as unknown as BuilderTool[])]);
    toolSets.set(mode, t);
  }
  return t;
}

export function systemFor(projectName: string, mode: BuildMode): SystemBlock[] {
  return [{ text: builderSystemPrompt(projectName, { mode }), stable: true }];
}

/** System prompt + tool definitions: what every turn carries before the conversation. */
export function fixedTokens(system: SystemBlock[], tools: BuilderTool[]): number {
  const c = countBuilderContext({ system, tools: tools.map((t) => toModelTool(t as ToolDefinition)), messages: [] });
  return c.system + c.tools;
}

/** The spec package a build works from: its working directory, read with the feature it started with. */
export function runPackage(run: BuildRun): SpecPackage {
  return run.state.feature ? readBuildPackage(run.workDir, run.state.feature) : readSpecPackage(run.workDir);
}

export function forgeContractsDir(workDir: string): string {
  return join(workDir, 'Forge', 'Contracts');
}

export function forgeContext(run: BuildRun, deps: BuilderDeps, sources: Map<string, LocalSource>) {
  let source = sources.get(run.workDir);
  if (!source) {
    source = new LocalSource({ dir: forgeContractsDir(run.workDir), watch: false });
    sources.set(run.workDir, source);
  }
  const session = new McpSession();
  // A plan handed over from the planner: phase windows come from that project's plan.
  if (run.projectId) session.set({ project_id: run.projectId, build_id: run.id });
  // Otherwise the registry tools describe the working directory's own spec package (read once per turn).
  let pkg: SpecPackage | undefined;
  const specPackage = run.projectId ? undefined : () => (pkg ??= runPackage(run));
  return {
    ...(specPackage ? { specPackage } : {}),
    source,
    projects: lazyProjects(deps),
    artifacts: deps.artifacts,
    session,
    scratchpad: new Scratchpad(run.workDir),
    transport: 'builder',
  };
}

function lazyProjects(deps: BuilderDeps) {
  return {
    getProjectContext: async (projectId: string) => (await deps.projects()).getProjectContext(projectId),
    getProjectContract: async (projectId: string, type: Parameters<ProjectStore['getProjectContract']>[1]) =>
      (await deps.projects()).getProjectContract(projectId, type),
    getBuildContracts: async (buildId: string) => (await deps.projects()).getBuildContracts(buildId),
  };
}

/** The scratchpad as the Builds screen shows it (read without the lock: a display, never a write). */
export function scratchpadEntries(workDir: string): { key: string; value: string }[] {
  try {
    const raw = JSON.parse(readFileSync(join(workDir, SCRATCHPAD_FILE), 'utf8')) as Record<string, unknown>;
    return Object.entries(raw)
      .filter(([, v]) => typeof v === 'string')
      .map(([key, value]) => ({ key, value: value as string }));
  } catch {
    return [];
  }
}

/** One phase's window as text (empty when the phases cannot be read: the auditor then works from the diff). */
export function windowText(plan: SpecPackage | string, phaseId: string): string {
  try {
    return typeof plan === 'string' ? phaseWindow(plan, Number(phaseId)).content : packageWindow(plan, phaseId).content;
  } catch {
    return '';
  }
}

/** The plan's own id of a stored phase (builds begun before ids were kept use the stored number). */
export function phaseIdOf(state: RunnerState, number: number): string {
  return state.phaseIds?.[String(number)] ?? String(number);
}

/**
 * Dump mode's first message: every document the package holds, the plan included — what a dump
 * really costs is what the dump-versus-fetch comparison measures (the bench sends the same).
 */
export function dumpOf(pkg: SpecPackage): { name: string; file?: string; text: string }[] {
  return pkg.documents.map((d) => ({ name: d.id, text: d.text }));
}

/** The plan the build follows: the planner project's plan text, or the working directory's spec package. */
export async function planOf(deps: BuilderDeps, run: BuildRun): Promise<SpecPackage | string> {
  if (run.projectId) {
    try {
      return (await (await deps.projects()).getProjectContract(run.projectId, 'phases')).content;
    } catch {
      return '';
    }
  }
  try {
    return runPackage(run);
  } catch {
    return '';
  }
}

export const short = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);
