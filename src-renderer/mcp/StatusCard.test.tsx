import { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { McpStatus } from '../../src-main/api/mcp';
import type { ForgeClient } from '../api/client';
import { ForgeProvider } from '../api/hooks';
import { CallLog } from './CallLog';
import { StatusCard } from './StatusCard';

/**
 * The MCP screen names the project each attached IDE is on and the project of each call. If this
 * failed, the PM would see anonymous clients and calls, and not that an IDE points at a folder that
 * is not on this machine.
 */

const status: McpStatus = {
  mode: 'local',
  source: '/srv/forge/contracts',
  transports: { stdio: { command: 'forge mcp' }, http: { running: true, url: 'http://127.0.0.1:4100/mcp', port: 4100, sessions: 2 } },
  clients: [
    {
      transport: 'http',
      client: 'Cursor 1.7',
      since: '2026-11-27T21:00:00.000Z',
      project: { id: 'photo-albums', name: 'photo-albums', folder: '/home/me/photo-albums', via: 'roots', format: 'spec-kit' },
      rootsError: null,
    },
    {
      transport: 'http',
      client: 'Claude Code 2.0',
      since: '2026-11-27T21:01:00.000Z',
      project: null,
      rootsError: 'The root file:///gone does not exist on this machine (/gone).',
    },
  ],
  tools: [],
  cache: { size: 0, hits: 0, misses: 0, evictions: 0 },
  exposeAnalystTools: false,
};

const wrap = (node: ReactNode) =>
  renderToStaticMarkup(
    <ForgeProvider client={{} as ForgeClient} queryClient={new QueryClient()}>
      {node}
    </ForgeProvider>,
  );

describe('the project per client on the MCP screen', () => {
  it("shows each client's project with its format and folder, or why its roots were not used", () => {
    const html = wrap(<StatusCard status={status} tokenPreview="abcd…wxyz" />);
    const lines = [...html.matchAll(/data-testid="mcp-client-project"[^>]*>([^<]*)</g)].map((m) => m[1]);
    expect(lines).toEqual([
      'On photo-albums (spec-kit) — its IDE&#x27;s open folder, /home/me/photo-albums',
      'No project: The root file:///gone does not exist on this machine (/gone).',
    ]);
    expect(html).toMatch(/class="mcp-client-project is-warn"/);
  });

  it('shows the project of each recent call, and a dash when there was none', () => {
    const html = wrap(
      <CallLog
        calls={[
          {
            at: '2026-11-27T21:02:00.000Z',
            tool: 'forge_get_project_context',
            transport: 'http',
            durationMs: 3,
            ok: true,
            error: null,
            project: 'photo-albums',
          },
          { at: '2026-11-27T21:01:00.000Z', tool: 'forge_summary', transport: 'http', durationMs: 1, ok: true, error: null, project: null },
        ]}
        error={null}
        fetching={false}
        onRetry={() => undefined}
      />,
    );
    const cells = [...html.matchAll(/data-testid="mcp-call-project">(.*?)<\/td>/g)].map((m) => m[1]);
    expect(cells).toEqual(['photo-albums', '<span class="muted">—</span>']);
  });
});
