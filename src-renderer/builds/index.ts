export { BuildsScreen } from './BuildsScreen';
export { buildEventNames, handleBuildChanged, handleBuildLog, handleCommandConsent, mergeDetail } from './live';
