import type { ProcedureInput, Settings } from '../../src-main/api';
import type { BuildMode } from '../../src-main/api/builds';

/**
 * The Start-a-build form: its fields, the models offered, and the `builds/start` input it sends.
 * Empty choices are left out so the core applies the Settings defaults (the builder role's
 * model, the MCP-contracts switch) rather than the form guessing them.
 */

export interface StartForm {
  workDir: string;
  /** '' = the Builder model from Settings. */
  model: string;
  /** null = follow Settings → Builder (MCP contracts unless switched off). */
  mode: BuildMode | null;
  mini: boolean;
  projectId: string;
  /** '' = the feature builds/inspect picks (the newest); else the one chosen in the format panel. */
  feature: string;
}

export const emptyStartForm: StartForm = { workDir: '', model: '', mode: null, mini: false, projectId: '', feature: '' };

/** The mode Settings choose when the form does not: MCP unless the user switched it off. */
export function settingsMode(settings: Pick<Settings, 'builder'> | undefined): BuildMode {
  return settings?.builder?.useMcpContracts === false ? 'dump' : 'mcp';
}

/** Model ids worth offering: the builder's own first, then every other id routed in Settings, once each. */
export function knownModels(models: Partial<Record<string, string>> | undefined): string[] {
  if (!models) return [];
  const out: string[] = [];
  const add = (id: string | undefined) => {
    if (id && !out.includes(id)) out.push(id);
  };
  add(models.builder);
  for (const id of Object.values(models).sort()) add(id);
  return out;
}

/** As Settings → Models spells a model id. */
const MODEL_ID = /^[a-z0-9][a-z0-9.-]*$/;

export type StartResult = { ok: true; input: ProcedureInput<'builds/start'> } | { ok: false; errors: Partial<Record<keyof StartForm, string>> };

export function startInput(form: StartForm): StartResult {
  const errors: Partial<Record<keyof StartForm, string>> = {};
  const workDir = form.workDir.trim();
  if (!workDir)
    errors.workDir =
      "Enter the project folder's full path (a spec-kit, Kiro or OpenSpec repository, a folder of Markdown specs with a plan, or one with Forge/Contracts/).";
  else if (workDir.length > 1000) errors.workDir = 'That path is longer than 1,000 characters.';
  const model = form.model.trim();
  if (model && (model.length > 120 || !MODEL_ID.test(model)))
    errors.model = 'A model id has lowercase letters, digits, dots and dashes, e.g. claude-sonnet-5-5.';
  const projectId = form.projectId.trim();
  if (projectId.length > 64 || /\s/.test(projectId)) errors.projectId = 'A planner project id is one word of at most 64 characters, e.g. todo-app.';
  const feature = form.feature.trim();
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    input: {
      workDir,
      ...(model ? { model } : {}),
      ...(form.mode ? { mode: form.mode } : {}),
      ...(form.mini ? { mini: true } : {}),
      ...(projectId ? { projectId } : {}),
      ...(feature ? { feature } : {}),
    },
  };
}
