import { type FormEvent, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { BuildMode } from '../../src-main/api/builds';
import { useProcedure, useProcedureMutation } from '../api/hooks';
import { fieldErrors } from '../api/errors';
import { ErrorPanel } from '../app/ErrorPanel';
import { handleBuildChanged } from './live';
import { SpecFormatPanel } from './SpecFormatPanel';
import { emptyStartForm, knownModels, settingsMode, type StartForm, startInput } from './start';

const modes: { value: BuildMode; label: string; hint: string }[] = [
  { value: 'mcp', label: 'MCP contracts', hint: 'A lean prompt; the builder fetches each contract and phase window when it needs them.' },
  { value: 'dump', label: 'Contract dump', hint: 'Every contract in the first message (the older flow, kept to compare on the same project).' },
];

/** Starts a build in a project folder of specs (a feature of it, where it has several); the API's refusal is shown right here. */
export function StartBuildForm(props: { onStarted: (id: string) => void }) {
  const queryClient = useQueryClient();
  const settings = useProcedure('settings/get', {});
  const start = useProcedureMutation('builds/start');
  const [form, setForm] = useState<StartForm>(emptyStartForm);
  const [errors, setErrors] = useState<Partial<Record<keyof StartForm, string>>>({});
  const s = settings.data?.settings;
  const builderModel = s?.models.builder;
  const models = knownModels(s?.models);
  const defaultMode = settingsMode(s);
  const mode = form.mode ?? defaultMode;
  // The API names a bad field (e.g. workDir) in its issues; anything else is shown as one message.
  const apiFields = fieldErrors(start.error);
  const shown = { ...apiFields, ...errors } as Partial<Record<keyof StartForm, string>>;
  const set = <K extends keyof StartForm>(key: K, value: StartForm[K]) => {
    setForm((old) => ({ ...old, [key]: value }));
    setErrors((old) => ({ ...old, [key]: undefined }));
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const built = startInput(form);
    if (!built.ok) {
      setErrors(built.errors);
      return;
    }
    setErrors({});
    start.mutate(built.input, {
      onSuccess: (r) => {
        handleBuildChanged(queryClient, r.build);
        setForm(emptyStartForm);
        props.onStarted(r.build.id);
      },
    });
  };

  const field = (key: keyof StartForm) => (shown[key] ? 'field has-error' : 'field');

  return (
    <div className="record-scroll">
      <form className="pad builds-start" onSubmit={onSubmit} noValidate aria-labelledby="build-start-title" data-testid="build-start-form">
        <h2 id="build-start-title">Start a build</h2>
        <p className="hint builds-start-lead">
          The builder works through the project phase by phase in its folder: it plans each phase, writes the code and tests, and signs the phase off only when
          the tests pass when Forge runs them.
        </p>
        <div className={field('workDir')}>
          <label htmlFor="build-workdir">Working directory</label>
          <input
            id="build-workdir"
            type="text"
            data-testid="build-workdir"
            placeholder="/home/you/projects/todo-app"
            autoComplete="off"
            spellCheck={false}
            value={form.workDir}
            aria-invalid={shown.workDir ? true : undefined}
            aria-describedby={shown.workDir ? 'build-workdir-error' : 'build-workdir-hint'}
            onChange={(e) => {
              set('workDir', e.target.value);
              // Another folder has other features: start again from the one Forge picks there.
              set('feature', '');
            }}
          />
          {shown.workDir ? (
            <p className="field-error" id="build-workdir-error" data-testid="build-workdir-error">
              {shown.workDir}
            </p>
          ) : (
            <p className="hint" id="build-workdir-hint">
              The project folder&apos;s full path: a GitHub spec-kit, Kiro or OpenSpec repository, a folder of Markdown specs with a phased plan, or{' '}
              <code>Forge/Contracts/</code>.
            </p>
          )}
        </div>
        <SpecFormatPanel dir={form.workDir} feature={form.feature} onFeature={(f) => set('feature', f)} />
        {shown.feature && (
          <p className="field-error" data-testid="build-feature-error">
            {shown.feature}
          </p>
        )}
        <div className={field('model')}>
          <label htmlFor="build-model">Model</label>
          <input
            id="build-model"
            type="text"
            list="build-model-options"
            data-testid="build-model"
            placeholder={builderModel ? `Builder model from Settings (${builderModel})` : 'Builder model from Settings'}
            autoComplete="off"
            spellCheck={false}
            value={form.model}
            aria-invalid={shown.model ? true : undefined}
            aria-describedby={shown.model ? 'build-model-error' : 'build-model-hint'}
            onChange={(e) => set('model', e.target.value)}
          />
          <datalist id="build-model-options">
            {models.map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
          {shown.model ? (
            <p className="field-error" id="build-model-error">
              {shown.model}
            </p>
          ) : (
            <p className="hint" id="build-model-hint">
              Leave empty for the Builder model from Settings → Models, or pick another id.
            </p>
          )}
        </div>
        <fieldset className="builds-modes" data-testid="build-mode">
          <legend>How the builder reads the contracts</legend>
          {modes.map((m) => (
            <label key={m.value} className="builds-choice">
              <input
                type="radio"
                name="build-mode"
                value={m.value}
                data-testid={`build-mode-${m.value}`}
                checked={mode === m.value}
                onChange={() => set('mode', m.value)}
              />
              <span>
                <span className="builds-choice-title">
                  <strong>{m.label}</strong>
                  {m.value === defaultMode && <span className="chip subtle">Settings default</span>}
                </span>
                <span className="hint">{m.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <label className="builds-choice builds-mini">
          <input type="checkbox" data-testid="build-mini" checked={form.mini} onChange={(e) => set('mini', e.target.checked)} />
          <span>
            <strong>Mini build</strong>
            <span className="hint">Only the first two phases: a quick trial of the flow.</span>
          </span>
        </label>
        <div className={field('projectId')}>
          <label htmlFor="build-project">Planner project (optional)</label>
          <input
            id="build-project"
            type="text"
            data-testid="build-project"
            placeholder="e.g. todo-app"
            autoComplete="off"
            spellCheck={false}
            value={form.projectId}
            aria-invalid={shown.projectId ? true : undefined}
            aria-describedby={shown.projectId ? 'build-project-error' : 'build-project-hint'}
            onChange={(e) => set('projectId', e.target.value)}
          />
          {shown.projectId ? (
            <p className="field-error" id="build-project-error">
              {shown.projectId}
            </p>
          ) : (
            <p className="hint" id="build-project-hint">
              Build from a plan made with the planner for this project instead of <code>Forge/Contracts/phases.md</code>.
            </p>
          )}
        </div>
        {start.error && Object.keys(apiFields).length === 0 && <ErrorPanel error={start.error} inline testId="build-start-error" />}
        <div className="form-actions static">
          <button type="submit" className="button primary" data-testid="build-start" disabled={start.isPending}>
            {start.isPending ? 'Starting…' : 'Start build'}
          </button>
        </div>
      </form>
    </div>
  );
}
