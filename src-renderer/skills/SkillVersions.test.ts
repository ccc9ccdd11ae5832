import { describe, expect, it } from 'vitest';
import { isVersionSnapshot, versionCaption } from './SkillVersions';

describe('a skill’s versions', () => {
  it('says where each version came from: an approved proposal, a restore, or the text before the first edit', () => {
    expect(versionCaption({ proposalId: 'SEP-001', restoredFrom: null, reason: 'applied SEP-001' })).toBe('approved SEP-001');
    expect(versionCaption({ proposalId: null, restoredFrom: 1, reason: 'restored version 1' })).toBe('restored v1');
    expect(versionCaption({ proposalId: null, restoredFrom: null, reason: 'the text before the first approved edit' })).toBe(
      'the text before the first approved edit',
    );
  });

  it('offers Restore only on a kept version, never on the live file', () => {
    expect(isVersionSnapshot('.versions/SKILL.md@1')).toBe(true);
    expect(isVersionSnapshot('SKILL.md')).toBe(false);
    expect(isVersionSnapshot('templates/output.md')).toBe(false);
  });
});
