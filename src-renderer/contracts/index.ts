export { ContractsScreen } from './ContractsScreen';
export { languageOf, markersOf, saveBlock, storedScope, storeScope } from './model';
