// What the API tests need to look at stored media the same way on local disk and in a bucket:
// TEST_MEDIA_STORAGE=s3 runs the media and upload suites against the S3-compatible server of
// api-global-setup.ts, each test app on a bucket of its own.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { inject } from 'vitest';
import { TEST_S3_CREDENTIALS } from './s3-server.js';
import type { TestApp } from './test-app.js';

/** Whether this run keeps media in a bucket. */
export const inBucket = (): boolean => inject('s3Endpoint') !== null;

/** The S3_* settings of a fresh bucket on the suite's server, or none on local disk. */
export async function testBucketEnv(): Promise<Record<string, string>> {
  const endpoint = inject('s3Endpoint');
  if (!endpoint) return {};
  const bucket = `pickreel-${randomBytes(6).toString('hex')}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: TEST_S3_CREDENTIALS,
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  client.destroy();
  return {
    S3_BUCKET: bucket,
    S3_ENDPOINT: endpoint,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: TEST_S3_CREDENTIALS.accessKeyId,
    S3_SECRET_ACCESS_KEY: TEST_S3_CREDENTIALS.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
  };
}

/** The bytes of a stored object, read through the app's store; null when there is none. */
export async function storedBytes(t: TestApp, key: string): Promise<Buffer | null> {
  if (!(await t.app.storage.stat(key))) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of await t.app.storage.read(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Stores a small object through the app's store (a video's files, for the deletion tests). */
export async function storeObject(t: TestApp, key: string, content: string | Buffer): Promise<void> {
  await t.app.storage.putStream(key, Readable.from([Buffer.from(content)]));
}

/** The keys stored under a prefix ('videos/12/'). */
export async function storedKeys(t: TestApp, prefix: string): Promise<string[]> {
  return (await t.app.storage.list(prefix)).map((object) => object.key).sort();
}

/**
 * A stored object as a local file, for ffprobe: on local disk the file itself, from a bucket a copy in a
 * temporary folder removed at the end of the test file's process.
 */
export async function storedFile(t: TestApp, key: string): Promise<string> {
  if (t.app.storage.kind === 'local') return t.app.storage.localCopy(key, '');
  const folder = mkdtempSync(path.join(os.tmpdir(), 'pickreel-stored-'));
  process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  return t.app.storage.localCopy(key, folder);
}

/** Multipart uploads not yet moved to their video: files in uploads/incoming, or objects under incoming/. */
export async function incomingLeftovers(t: TestApp): Promise<string[]> {
  if (t.app.storage.kind === 's3') return storedKeys(t, 'incoming/');
  const dir = path.join(t.config.dataDir, 'uploads', 'incoming');
  return existsSync(dir) ? readdirSync(dir) : [];
}

/** The bytes tus holds of an upload (finished, not yet taken in): its file, or its object in the bucket. */
export async function tusBytes(t: TestApp, uploadId: string): Promise<Buffer | null> {
  if (t.app.storage.kind === 's3') return storedBytes(t, uploadId);
  const file = path.join(t.config.dataDir, 'uploads', 'tus', uploadId);
  return existsSync(file) ? readFileSync(file) : null;
}

/** What tus keeps of unfinished uploads: the files of uploads/tus, or the <id>* objects of the bucket's root. */
export async function tusLeftovers(t: TestApp): Promise<string[]> {
  if (t.app.storage.kind === 's3')
    return (await storedKeys(t, '')).filter((key) => /^[0-9a-f]{32}(\.|$)/.test(key));
  const dir = path.join(t.config.dataDir, 'uploads', 'tus');
  return existsSync(dir) ? readdirSync(dir) : [];
}
