import { describe, expect, it } from 'vitest';
import { type BuilderDefaults, builderDraftFrom, builderPatch, parseCommands, riskyCommands, sameBuilderDraft } from './builder';

/** What settings/get sends as builderDefaults (the core's own values). */
const DEFAULTS: BuilderDefaults = { useMcpContracts: true, allowedCommands: ['node', 'npm', 'git'], contextLimitTokens: 150_000, compactAtShare: 0.7 };

describe('Settings → Builder', () => {
  it('shows the defaults when nothing is set: MCP on, Forge’s list, 150,000 tokens, compaction at 70%', () => {
    const d = builderDraftFrom(undefined, DEFAULTS);
    expect(d).toEqual({
      useMcpContracts: true,
      useDefaultCommands: true,
      commands: DEFAULTS.allowedCommands.join('\n'),
      contextLimitTokens: '150000',
      compactAtPercent: '70',
    });
  });

  it('saves the default list as "not set", so the builder keeps following Forge’s list', () => {
    const patch = builderPatch(builderDraftFrom(undefined, DEFAULTS));
    expect(patch.builder).toEqual({ useMcpContracts: true, contextLimitTokens: 150000, compactAtShare: 0.7 });
    expect(patch.builder).not.toHaveProperty('allowedCommands');
  });

  it('saves the PM’s own list, contract mode and context figures as the core reads them', () => {
    const d = {
      ...builderDraftFrom(undefined, DEFAULTS),
      useMcpContracts: false,
      useDefaultCommands: false,
      commands: 'npm\nnode, git  npm\n\n',
      contextLimitTokens: '200k',
      compactAtPercent: '65%',
    };
    expect(builderPatch(d).builder).toEqual({
      useMcpContracts: false,
      allowedCommands: ['npm', 'node', 'git'],
      contextLimitTokens: 200000,
      compactAtShare: 0.65,
    });
    // Round trip: what was saved reads back as the same draft.
    const back = builderDraftFrom(builderPatch(d).builder, DEFAULTS);
    expect(back.commands).toBe('npm\nnode\ngit');
    expect(back.useDefaultCommands).toBe(false);
    expect(back.compactAtPercent).toBe('65');
  });

  it('refuses paths, arguments, empty lists and out-of-range figures with a message per field', () => {
    const base = { ...builderDraftFrom(undefined, DEFAULTS), useDefaultCommands: false };
    expect(builderPatch({ ...base, commands: '/usr/bin/node\nnpm' }).errors?.commands).toMatch(/no paths or arguments: \/usr\/bin\/node/);
    expect(builderPatch({ ...base, commands: '  ' }).errors?.commands).toMatch(/at least one/);
    expect(builderPatch({ ...base, contextLimitTokens: '2000' }).errors?.contextLimitTokens).toMatch(/4,000/);
    expect(builderPatch({ ...base, contextLimitTokens: 'lots' }).errors?.contextLimitTokens).toMatch(/number of tokens/);
    expect(builderPatch({ ...base, compactAtPercent: '99' }).errors?.compactAtPercent).toMatch(/20% and 95%/);
    expect(builderPatch({ ...base, compactAtPercent: '' }).errors?.compactAtPercent).toMatch(/percentage/);
  });

  it('warns about programs that would let the builder run anything', () => {
    expect(riskyCommands(parseCommands('npm bash curl git'))).toEqual(['bash', 'curl']);
    expect(riskyCommands(DEFAULTS.allowedCommands)).toEqual([]);
  });

  it('treats the same list typed with other separators as unchanged, and a different list as a change', () => {
    const a = { ...builderDraftFrom(undefined, DEFAULTS), useDefaultCommands: false, commands: 'npm\nnode' };
    expect(sameBuilderDraft(a, { ...a, commands: 'npm, node ' })).toBe(true);
    expect(sameBuilderDraft(a, { ...a, commands: 'npm' })).toBe(false);
  });
});
