import type { ModelRole } from '../../src-main/api';

/** Model roles in the order a PM thinks about them, with what each one does. */
export const modelRoleInfo: { role: ModelRole; label: string; hint: string }[] = [
  { role: 'agent', label: 'Analyst', hint: 'Talks with you and decides what to do next.' },
  { role: 'subagent', label: 'Sub-agents', hint: 'Focused tasks the analyst dispatches.' },
  { role: 'validation', label: 'Validation', hint: 'Checks sub-agent output against the skill.' },
  { role: 'contrastive', label: 'Contrastive check', hint: 'Argues the other side of a conclusion.' },
  { role: 'review', label: 'Review', hint: 'Independent adversarial review.' },
  { role: 'synthesis', label: 'Synthesis', hint: 'Pulls results into one portfolio picture.' },
  { role: 'compact', label: 'Compaction', hint: 'Compresses long context.' },
  { role: 'proposal', label: 'Skill proposals', hint: 'Drafts skill edits from repeated lessons.' },
  { role: 'builder', label: 'Builder', hint: 'Builds projects phase by phase.' },
  { role: 'planner', label: 'Planner', hint: 'Plans phases from the contracts.' },
];
