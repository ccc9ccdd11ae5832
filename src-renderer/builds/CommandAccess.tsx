import { useQueryClient } from '@tanstack/react-query';
import type { BuildDetail, BuildSummary } from '../../src-main/api/builds';
import { useProcedureMutation } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { handleBuildChanged } from './live';

/**
 * How this build's commands run. Where Forge cannot confine them (no bubblewrap on this machine), a
 * command waits here, its exact command line shown, until the PM allows or denies it; an Allow
 * covers that class of command for the rest of the build. The network switch lets the sandbox
 * keep the network for this build (package installs need it); it is off by default.
 */
export function CommandAccess(props: { build: BuildSummary; commands: BuildDetail['commands'] }) {
  const queryClient = useQueryClient();
  const decide = useProcedureMutation('builds/decide-command');
  const network = useProcedureMutation('builds/set-network');
  const done = { onSuccess: (r: { build: BuildSummary }) => handleBuildChanged(queryClient, r.build) };
  const { consent, allowNetwork } = props.commands;
  const busy = decide.isPending || network.isPending;
  const error = decide.error ?? network.error;

  return (
    <section className="build-commands" aria-label="Commands" data-testid="build-commands">
      {consent && (
        <div className="build-consent" role="alert" data-testid="build-consent">
          <p>
            <strong>The builder wants to run a command.</strong> {consent.notice}
          </p>
          <pre className="build-consent-command" data-testid="build-consent-command">
            <code>$ {consent.commandLine}</code>
          </pre>
          <div className="build-controls" role="group" aria-label="Allow or deny this command">
            <button
              type="button"
              className="button primary"
              data-testid="build-consent-allow"
              disabled={busy}
              onClick={() => decide.mutate({ id: props.build.id, requestId: consent.requestId, allow: true }, done)}
            >
              Allow {consent.commandClass} commands for this build
            </button>
            <button
              type="button"
              className="button"
              data-testid="build-consent-deny"
              disabled={busy}
              onClick={() => decide.mutate({ id: props.build.id, requestId: consent.requestId, allow: false }, done)}
            >
              Deny
            </button>
          </div>
        </div>
      )}
      <label className="builds-choice">
        <input
          type="checkbox"
          role="switch"
          aria-checked={allowNetwork}
          data-testid="build-allow-network"
          checked={allowNetwork}
          disabled={busy}
          onChange={(e) => network.mutate({ id: props.build.id, allow: e.target.checked }, done)}
        />
        <span>
          <strong>Allow network for this build</strong>
          <span className="hint">Off: the build's commands cannot reach the internet or this computer's services. Package installs need it on.</span>
        </span>
      </label>
      {error && <ErrorPanel error={error} />}
    </section>
  );
}
