export { defaultSettings } from './defaults';
export { SettingsFile, SETTINGS_FILE } from './settings-file';
export { EnvSecretStore, secretEnvVars } from './secrets';
export type { SecretStore, SecretName } from './secrets';
export { resolveDataDir } from './paths';
