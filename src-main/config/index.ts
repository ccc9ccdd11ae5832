export { defaultSettings } from './defaults';
export { SettingsFile, SETTINGS_FILE } from './settings-file';
export { EnvSecretStore, secretEnvVars } from './secrets';
export type { SecretStore, SecretName } from './secrets';
export { prepareDataDir, resolveDataDir } from './paths';
export { modelRoles, defaultModelRouting, modelRoutingSchema, routerFor, isModelRole, MODEL_TIERS } from './models';
export type { ModelRole, ModelRouting } from './models';
