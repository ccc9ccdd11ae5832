import { defaultModelRouting } from '../api/models';
import type { Settings } from '../api/procedures';

/** What a new workspace starts with. Numbers follow the seed configuration (DESIGN.md §5). */
export const defaultSettings: Settings = {
  theme: 'system',
  timezone: 'America/New_York',
  displayName: '',
  sessionTimeoutMinutes: 30,
  anthropicBaseUrl: '',
  searchWeights: { semantic: 0.7, recency: 0.3 },
  models: { ...defaultModelRouting },
  allowedSkillScripts: [],
};
