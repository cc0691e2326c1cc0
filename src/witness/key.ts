// The witness's Ed25519 key: made at the first start, kept as a PKCS #8 PEM file readable by its owner only.
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdir, open, readFile } from 'node:fs/promises';
import path from 'node:path';

export interface WitnessKey {
  privateKey: KeyObject;
  /** The 32-byte Ed25519 public key. */
  publicKey: Uint8Array;
  /** Made just now (the file did not exist). */
  created: boolean;
}

export class WitnessKeyError extends Error {
  override readonly name = 'WitnessKeyError';
}

/** Reads the key file, or makes a new key there when there is none. */
export async function loadOrCreateWitnessKey(file: string): Promise<WitnessKey> {
  let pem: Buffer | null = null;
  try {
    pem = await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new WitnessKeyError(`cannot read the key file ${file}: ${(error as Error).message}`);
  }
  if (pem) return { ...fromPem(file, pem), created: false };
  const { privateKey } = generateKeyPairSync('ed25519');
  await mkdir(path.dirname(file), { recursive: true });
  // 'wx': never over a key another start wrote meanwhile.
  const handle = await open(file, 'wx', 0o600).catch((error: NodeJS.ErrnoException) => {
    throw new WitnessKeyError(`cannot create the key file ${file}: ${error.message}`);
  });
  try {
    await handle.writeFile(privateKey.export({ format: 'pem', type: 'pkcs8' }));
    await handle.sync();
  } finally {
    await handle.close();
  }
  return { privateKey, publicKey: rawPublicKey(privateKey), created: true };
}

function fromPem(file: string, pem: Buffer): Omit<WitnessKey, 'created'> {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch (error) {
    throw new WitnessKeyError(`the key file ${file} is not a PEM private key (${(error as Error).message})`);
  }
  if (privateKey.asymmetricKeyType !== 'ed25519')
    throw new WitnessKeyError(
      `the key file ${file} holds a ${privateKey.asymmetricKeyType} key, not Ed25519`,
    );
  return { privateKey, publicKey: rawPublicKey(privateKey) };
}

function rawPublicKey(privateKey: KeyObject): Uint8Array {
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  return new Uint8Array(Buffer.from(jwk.x!, 'base64url'));
}
