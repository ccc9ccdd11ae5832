import { QueryClient } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { BuildDetail, BuildSummary } from '../../src-main/api/builds';
import type { ForgeClient } from '../api/client';
import { ForgeProvider } from '../api/hooks';
import { CommandAccess } from './CommandAccess';

/**
 * The Builds screen's command panel: a command waiting to run unconfined shows its exact command
 * line, the one-sentence notice and labelled Allow/Deny buttons; the network switch shows the
 * build's setting. If this failed, the PM could not see what they are allowing, or the build would
 * wait for an answer nobody can give.
 */

const build = { id: 'b-1', status: 'running' } as BuildSummary;
const render = (commands: BuildDetail['commands']) =>
  renderToStaticMarkup(
    <ForgeProvider client={{} as ForgeClient} queryClient={new QueryClient()}>
      <CommandAccess build={build} commands={commands} />
    </ForgeProvider>,
  );

describe('the command panel', () => {
  it('shows the waiting command line with the notice and labelled Allow and Deny buttons', () => {
    const html = render({
      allowNetwork: false,
      approvedClasses: [],
      consent: {
        requestId: 'r-1',
        commandClass: 'npm install',
        commandLine: 'npm install left-pad',
        notice: 'Commands are not confined on this machine (this computer runs darwin), so this one would run with your own access.',
        at: '2026-11-27T18:00:00.000Z',
      },
    });
    expect(html).toContain('role="alert"');
    expect(html).toContain('$ npm install left-pad');
    expect(html).toContain('Commands are not confined on this machine (this computer runs darwin)');
    expect(html).toMatch(/<button[^>]*data-testid="build-consent-allow"[^>]*>Allow npm install commands for this build<\/button>/);
    expect(html).toMatch(/<button[^>]*data-testid="build-consent-deny"[^>]*>Deny<\/button>/);
    expect(html).not.toMatch(/data-testid="build-allow-network"[^>]*checked/);
  });

  it('shows no question when nothing waits, and the network switch as the build has it', () => {
    const html = render({ allowNetwork: true, approvedClasses: ['tests'], consent: null });
    expect(html).not.toContain('build-consent');
    expect(html).toMatch(/<input[^>]*role="switch"[^>]*data-testid="build-allow-network"[^>]*checked/);
    expect(html).toContain('Allow network for this build');
  });
});
