import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { safeStorage } from 'electron';
import { writeFileAtomic } from '../common/atomic-file';
import { secretEnvVars, type SecretName, type SecretStore } from '../config/secrets';

/**
 * API keys encrypted with the operating system's keychain (Electron safeStorage) in
 * secrets.bin in the data folder. The environment still wins, so a key set for a shell
 * session behaves the same as in headless mode.
 */
export class SafeStorageSecretStore implements SecretStore {
  readonly description = "Desktop: keys are encrypted with your operating system's keychain and never shown again.";
  private readonly file: string;
  private values: Partial<Record<SecretName, string>> = {};

  constructor(dataDir: string) {
    this.file = join(dataDir, 'secrets.bin');
    if (existsSync(this.file) && safeStorage.isEncryptionAvailable()) {
      try {
        this.values = JSON.parse(safeStorage.decryptString(readFileSync(this.file)));
      } catch {
        this.values = {}; // unreadable (another machine's keychain): the PM re-enters keys
      }
    }
  }

  get(name: SecretName): string | undefined {
    return process.env[secretEnvVars[name]]?.trim() || this.values[name] || undefined;
  }

  set(name: SecretName, value: string | undefined): void {
    if (!safeStorage.isEncryptionAvailable()) {
      throw new Error('This system has no keychain available to encrypt API keys; set them as environment variables instead.');
    }
    if (value) this.values[name] = value;
    else delete this.values[name];
    writeFileAtomic(this.file, safeStorage.encryptString(JSON.stringify(this.values)));
  }
}
