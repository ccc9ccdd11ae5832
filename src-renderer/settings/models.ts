import type { ModelRole } from '../../src-main/api';

/** What each model role does, in a PM's words. A Record, so a new role cannot be left out of Settings. */
const roles: Record<ModelRole, { label: string; hint: string }> = {
  agent: { label: 'Analyst', hint: 'Talks with you and decides what to do next.' },
  subagent: { label: 'Sub-agents', hint: 'Focused tasks the analyst dispatches.' },
  validation: { label: 'Validation', hint: 'Checks sub-agent output against the skill.' },
  contrastive: { label: 'Contrastive check', hint: 'Argues the other side of a conclusion.' },
  review: { label: 'Review', hint: 'Independent adversarial review.' },
  synthesis: { label: 'Synthesis', hint: 'Pulls results into one portfolio picture.' },
  compact: { label: 'Compaction', hint: 'Compresses long context.' },
  proposal: { label: 'Skill proposals', hint: 'Drafts skill edits from repeated lessons.' },
  builder: { label: 'Builder', hint: 'Builds projects phase by phase.' },
  planner: { label: 'Planner', hint: 'Plans phases from the contracts.' },
};

export const modelRoleInfo = (Object.keys(roles) as ModelRole[]).map((role) => ({ role, ...roles[role] }));
