export { SkillsScreen } from './SkillsScreen';
export { routeSkill, skillRoute, stateBadge, fileGroups, languageFor, matchesFilter } from './model';
