export { BuildsScreen } from './BuildsScreen';
export { buildEventNames, handleBuildChanged, handleBuildLog, mergeDetail } from './live';
