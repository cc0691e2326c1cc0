// The log's Ed25519 key and identity (docs/decisions/021). The key is made at the first start and
// kept in a file (under DATA_DIR unless PICK_LOG_KEY_FILE says where); the database remembers the log's
// origin and verifier key, so a start with a lost or different key stops with a message instead of
// silently re-keying a log that verifiers already trust.
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ed25519KeyId, formatVerifierKey } from '#common/pick-log/note.js';
import type { Db } from '#server/db/client.js';
import { writeAudit } from '#server/db/audit-log.js';
import { changeIdentityKey, claimIdentity, readIdentity } from './log-repository.js';
import { sha256 } from './log-service.js';

export interface LogKey {
  origin: string;
  privateKey: KeyObject;
  publicKey: Uint8Array;
  keyId: Uint8Array;
  verifierKey: string;
}

export interface LogKeySettings {
  /** PKCS #8 PEM file of the Ed25519 private key. */
  keyFile: string;
  /** The origin (and key name) a new log takes; an existing log keeps its own unless this names another. */
  origin: string | undefined;
  defaultOrigin: string;
  /** PICK_LOG_NEW_KEY: accept a new key for an existing log (a documented operational event). */
  acceptNewKey: boolean;
}

export class LogKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LogKeyError';
  }
}

function rawPublicKey(privateKey: KeyObject): Uint8Array {
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  return Buffer.from(jwk.x!, 'base64url');
}

function readKeyFile(file: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(readFileSync(file));
  } catch (err) {
    throw new LogKeyError(
      `PICK_LOG_KEY_FILE: ${file} is not a readable PEM private key (${(err as Error).message}).`,
    );
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new LogKeyError(`PICK_LOG_KEY_FILE: ${file} is not an Ed25519 key.`);
  return key;
}

/**
 * Several instances sharing one key file may start a new log at once: the key is written beside and
 * linked into place, so the first one's key is the file's, whole, and the others read it instead of failing.
 */
export function newKeyFile(file: string): KeyObject {
  const { privateKey } = generateKeyPairSync('ed25519');
  mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(partial, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
  try {
    linkSync(partial, file);
    return privateKey;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readKeyFile(file);
    throw err;
  } finally {
    rmSync(partial, { force: true });
  }
}

/** Loads (or, for a new log, makes) the signing key and checks it against the log's recorded identity. */
export async function loadLogKey(db: Db, settings: LogKeySettings): Promise<LogKey> {
  let identity = await readIdentity(db);
  const origin = settings.origin ?? identity?.origin ?? settings.defaultOrigin;
  const fileExists = existsSync(settings.keyFile);
  if (identity && !fileExists && !settings.acceptNewKey)
    throw new LogKeyError(
      `The pick log's signing key is missing (${settings.keyFile}); its verifiers trust ${identity.verifierKey}. ` +
        'Restore the key file from a backup (or point PICK_LOG_KEY_FILE at it). If it is truly lost, start with ' +
        'PICK_LOG_NEW_KEY=true to sign with a new key: verifiers will report the change (docs/decisions/021).',
    );
  const privateKey = fileExists ? readKeyFile(settings.keyFile) : newKeyFile(settings.keyFile);
  const publicKey = rawPublicKey(privateKey);
  const verifierKey = await formatVerifierKey(origin, publicKey, sha256);
  if (!identity) {
    // Several instances may start a new log at once: the first to record its identity names the log.
    await claimIdentity(db, { origin, verifierKey });
    identity = (await readIdentity(db))!;
  }
  if (identity.origin !== origin)
    throw new LogKeyError(
      `PICK_LOG_ORIGIN: this log's origin is ${identity.origin}; a log never changes its name (a new origin is a new log).`,
    );
  if (identity.verifierKey !== verifierKey) {
    if (!settings.acceptNewKey)
      throw new LogKeyError(
        `The pick log's signing key (${settings.keyFile}) is not the log's key: its verifiers trust ` +
          `${identity.verifierKey}, this key is ${verifierKey}. Restore the right key file, or start with ` +
          'PICK_LOG_NEW_KEY=true to sign with this one: verifiers will report the change (docs/decisions/021).',
      );
    const before = identity.verifierKey;
    await db.transaction(async (tx) => {
      await changeIdentityKey(tx, verifierKey);
      await writeAudit(tx, {
        actorId: null,
        action: 'log.rekey',
        targetType: 'pick_log',
        targetId: null,
        before: { verifierKey: before },
        after: { verifierKey },
      });
    });
  }
  return { origin, privateKey, publicKey, keyId: await ed25519KeyId(origin, publicKey, sha256), verifierKey };
}
