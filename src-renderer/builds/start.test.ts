import { describe, expect, it } from 'vitest';
import { emptyStartForm, knownModels, settingsMode, startInput } from './start';

describe('the Start-a-build form', () => {
  it('sends only the folder when the rest is left to Settings', () => {
    expect(startInput({ ...emptyStartForm, workDir: '  /home/ana/todo-app ' })).toEqual({ ok: true, input: { workDir: '/home/ana/todo-app' } });
  });

  it('sends every choice the user made', () => {
    expect(startInput({ workDir: '/p', model: 'claude-sonnet-5-5', mode: 'dump', mini: true, projectId: 'todo-app', feature: '001-team-accounts' })).toEqual({
      ok: true,
      input: { workDir: '/p', model: 'claude-sonnet-5-5', mode: 'dump', mini: true, projectId: 'todo-app', feature: '001-team-accounts' },
    });
  });

  it('refuses an empty folder, a malformed model id and a project id with spaces, naming each field', () => {
    const r = startInput({ workDir: ' ', model: 'Claude Opus', mode: null, mini: false, projectId: 'my project', feature: '' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.errors).sort()).toEqual(['model', 'projectId', 'workDir']);
    expect(r.errors.workDir).toMatch(/Forge\/Contracts/);
  });

  it('defaults the mode to MCP contracts unless Settings switched them off', () => {
    expect([
      settingsMode(undefined),
      settingsMode({ builder: {} }),
      settingsMode({ builder: { useMcpContracts: true } }),
      settingsMode({ builder: { useMcpContracts: false } }),
    ]).toEqual(['mcp', 'mcp', 'mcp', 'dump']);
  });

  it("offers the builder's model first, then every other routed model once", () => {
    expect(knownModels({ agent: 'claude-opus-5-5', builder: 'claude-sonnet-5-5', compact: 'claude-haiku-5-5', review: 'claude-opus-5-5' })).toEqual([
      'claude-sonnet-5-5',
      'claude-haiku-5-5',
      'claude-opus-5-5',
    ]);
    expect(knownModels(undefined)).toEqual([]);
  });
});
