import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../common/errors';
import { createPrivateFile } from '../common/private-files';

/**
 * The workspace's archive signing key: an Ed25519 key made on first export and kept, owner-only, in
 * the data folder — never in an archive. A signature proves an archive was made by whoever holds
 * that key (this Forge, or anyone who can read this data folder) and has not changed since; a
 * SHA-256 alone only shows the archive was not damaged, since whoever changes it can recompute it.
 */
export const SIGNING_KEY_FILE = 'archive-signing-key.pem';

export interface SigningKey {
  privateKey: KeyObject;
  /** The public key (SPKI DER, base64), written into every archive it signs. */
  publicKey: string;
  fingerprint: string;
}

/** A short, readable name for a public key: SHA-256 of its DER, 16 bytes in groups of four hex digits. */
export function fingerprint(publicKey: string): string {
  const hex = createHash('sha256').update(Buffer.from(publicKey, 'base64')).digest('hex').slice(0, 32);
  return hex.match(/.{4}/g)!.join(':');
}

function fromPrivate(privateKey: KeyObject): SigningKey {
  const publicKey = createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64');
  return { privateKey, publicKey, fingerprint: fingerprint(publicKey) };
}

/** The key in `dataDir`, or null when this workspace has never signed anything. */
export function readSigningKey(dataDir: string): SigningKey | null {
  const file = join(dataDir, SIGNING_KEY_FILE);
  if (!existsSync(file)) return null;
  try {
    const key = createPrivateKey(readFileSync(file));
    if (key.asymmetricKeyType !== 'ed25519') throw new Error(`it is a ${key.asymmetricKeyType} key, not Ed25519`);
    return fromPrivate(key);
  } catch (e) {
    throw new AppError(
      'invalid_input',
      `${file} is not a usable archive signing key (${(e as Error).message}). Move it aside; Forge makes a new one on the next export.`,
    );
  }
}

/** The key in `dataDir`, made (owner-only) if there is none yet. */
export function signingKey(dataDir: string): SigningKey {
  const existing = readSigningKey(dataDir);
  if (existing) return existing;
  const { privateKey } = generateKeyPairSync('ed25519');
  const file = join(dataDir, SIGNING_KEY_FILE);
  createPrivateFile(file);
  writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  return fromPrivate(privateKey);
}

export function signManifest(payload: string, key: SigningKey): string {
  return sign(null, Buffer.from(payload, 'utf8'), key.privateKey).toString('base64');
}

export function verifyManifest(payload: string, signature: string, publicKey: string): boolean {
  try {
    const key = createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' });
    if (key.asymmetricKeyType !== 'ed25519') return false;
    return verify(null, Buffer.from(payload, 'utf8'), key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}
