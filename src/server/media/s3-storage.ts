// Media in an S3-compatible bucket (docs/decisions/022): the same keys as on local disk, one bucket.
// Loaded only when S3_BUCKET is set, so the embedded default never loads the AWS SDK.
import { createReadStream, createWriteStream } from 'node:fs';
import { stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCopyCommand,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { contentTypeOf } from './content-types.js';
import { isMediaKey, type ListedObject, type MediaStorage, type StoredObject } from './storage.js';

/** The bucket and how to reach it (config.ts: S3_*). */
export interface S3Settings {
  bucket: string;
  /** Empty for AWS itself; the store's URL otherwise (MinIO, R2, Ceph, …). */
  endpoint: string | undefined;
  region: string;
  /** Both or neither: without them the SDK's own chain (environment, instance role) is used. */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
  /** The CDN (or the bucket's public URL) serving public media: S3_PUBLIC_URL. */
  publicUrl: string | undefined;
}

/** What the SDK client (ours and @tus/s3-store's) is made with. */
export function s3ClientConfig(settings: S3Settings): S3ClientConfig {
  return {
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    // The SDK's default CRC32 checksum on every request is not taken by every S3-compatible store (older
    // MinIO, Ceph, some CDNs' stores): checksums only where S3 requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

const MIB = 1024 * 1024;
/**
 * Streaming puts go up in 8 MiB parts, two at a time: an upload holds at most ~3 parts in memory whatever
 * the file's size (nothing holds a whole file). 10,000 parts of 8 MiB is 78 GiB, past our 15 GB.
 */
const PART_SIZE = 8 * MIB;
const PARTS_IN_FLIGHT = 2;
/** S3's limit for one PutObject. */
const SINGLE_PUT_MAX = 5 * 1024 * MIB;

export interface CopyLimits {
  /** S3's CopyObject takes objects up to 5 GiB; larger ones are copied part by part. */
  singleCopyMax: number;
  copyPartSize: number;
}
const DEFAULT_COPY_LIMITS: CopyLimits = { singleCopyMax: 5 * 1024 * MIB, copyPartSize: 512 * MIB };
const COPIES_IN_FLIGHT = 4;

/** An S3 error for a key (or bucket) that is not there. */
export function isNotFound(error: unknown): boolean {
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  const name = (error as { name?: string }).name;
  return status === 404 || name === 'NotFound' || name === 'NoSuchKey';
}

export class S3MediaStorage implements MediaStorage {
  readonly kind = 's3';
  readonly client: S3Client;
  readonly bucket: string;

  constructor(
    readonly settings: S3Settings,
    private readonly copyLimits: CopyLimits = DEFAULT_COPY_LIMITS,
  ) {
    this.client = new S3Client(s3ClientConfig(settings));
    this.bucket = settings.bucket;
  }

  /** The key itself, once checked: the same rule as on disk, so a request can name nothing else. */
  private checked(key: string): string {
    if (!isMediaKey(key)) throw new Error(`invalid media key: ${key}`);
    return key;
  }

  /** HeadBucket: start-up stops with a clear message when the bucket cannot be reached. */
  async checkBucket(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  async removePrefix(prefix: string): Promise<void> {
    // 'videos/12/', never 'videos/12': that would take videos/120 with it.
    const folder = `${this.checked(prefix.replace(/\/+$/, ''))}/`;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: folder, ContinuationToken: token }),
      );
      const objects = (page.Contents ?? []).flatMap((item) => (item.Key ? [{ Key: item.Key }] : []));
      if (objects.length > 0) {
        const result = await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: objects, Quiet: true } }),
        );
        const failed = result.Errors ?? [];
        if (failed.length > 0)
          throw new Error(`could not delete ${failed.length} objects under ${folder}: ${failed[0]?.Code}`);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.checked(key) }));
  }

  async putFile(key: string, localFile: string): Promise<void> {
    const { size } = await stat(localFile);
    if (size <= SINGLE_PUT_MAX) {
      // A file of known length goes up in one PutObject, streamed from disk: no part held in memory, one
      // request (an HLS segment, a thumbnail, an MP4 up to 5 GiB).
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: this.checked(key),
          Body: createReadStream(localFile, { highWaterMark: MIB }),
          ContentLength: size,
          ContentType: contentTypeOf(key),
        }),
      );
    } else {
      await this.putStream(key, createReadStream(localFile, { highWaterMark: MIB }));
    }
    await unlink(localFile);
  }

  async putStream(key: string, body: Readable): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.checked(key), Body: body, ContentType: contentTypeOf(key) },
      partSize: PART_SIZE,
      queueSize: PARTS_IN_FLIGHT,
    });
    await upload.done();
  }

  async move(from: string, to: string): Promise<void> {
    const object = await this.stat(from);
    if (!object) throw new Error(`no object to move: ${from}`);
    const source = `${this.bucket}/${this.checked(from)}`;
    const target = { Bucket: this.bucket, Key: this.checked(to) };
    if (object.size <= this.copyLimits.singleCopyMax) {
      await this.client.send(
        new CopyObjectCommand({
          ...target,
          CopySource: source,
          ContentType: contentTypeOf(to),
          MetadataDirective: 'REPLACE',
        }),
      );
    } else {
      await this.copyInParts(source, target, object.size);
    }
    await this.remove(from);
  }

  /** A server-side copy of an object larger than CopyObject takes: UploadPartCopy, a few parts at a time. */
  private async copyInParts(source: string, target: { Bucket: string; Key: string }, size: number) {
    const { UploadId } = await this.client.send(
      new CreateMultipartUploadCommand({ ...target, ContentType: contentTypeOf(target.Key) }),
    );
    const partSize = this.copyLimits.copyPartSize;
    const count = Math.ceil(size / partSize);
    const parts: { PartNumber: number; ETag: string | undefined }[] = [];
    try {
      for (let first = 1; first <= count; first += COPIES_IN_FLIGHT) {
        const numbers = Array.from(
          { length: Math.min(COPIES_IN_FLIGHT, count - first + 1) },
          (_, index) => first + index,
        );
        const copied = await Promise.all(
          numbers.map(async (PartNumber) => {
            const start = (PartNumber - 1) * partSize;
            const end = Math.min(size, start + partSize) - 1;
            const result = await this.client.send(
              new UploadPartCopyCommand({
                ...target,
                UploadId,
                PartNumber,
                CopySource: source,
                CopySourceRange: `bytes=${start}-${end}`,
              }),
            );
            return { PartNumber, ETag: result.CopyPartResult?.ETag };
          }),
        );
        parts.push(...copied);
      }
      await this.client.send(
        new CompleteMultipartUploadCommand({ ...target, UploadId, MultipartUpload: { Parts: parts } }),
      );
    } catch (error) {
      await this.client.send(new AbortMultipartUploadCommand({ ...target, UploadId })).catch(() => undefined);
      throw error;
    }
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.checked(key) }),
      );
      return { size: head.ContentLength ?? 0, modified: head.LastModified ?? new Date(0) };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const result = await this.client.send(
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: this.checked(key),
        Range: range ? `bytes=${range.start}-${range.end}` : undefined,
      }),
    );
    // In Node the SDK's body is the HTTP response itself: streamed, never buffered.
    return result.Body as Readable;
  }

  async localCopy(key: string, workDir: string): Promise<string> {
    const file = path.join(workDir, `source${path.extname(key)}`);
    await pipeline(await this.read(key), createWriteStream(file, { highWaterMark: MIB }));
    return file;
  }

  async list(prefix: string): Promise<ListedObject[]> {
    const listed: ListedObject[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const item of page.Contents ?? [])
        if (item.Key) listed.push({ key: item.Key, modified: item.LastModified ?? new Date(0) });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return listed;
  }

  publicUrl(key: string): string | null {
    return this.settings.publicUrl ? `${this.settings.publicUrl}/${key}` : null;
  }
}

/** The store of S3_*, once the bucket answered: a wrong name, endpoint or key stops start-up here. */
export async function openS3MediaStorage(settings: S3Settings): Promise<S3MediaStorage> {
  const storage = new S3MediaStorage(settings);
  try {
    await storage.checkBucket();
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    const reason = isNotFound(error)
      ? 'there is no such bucket'
      : status === 403 || status === 401
        ? 'access denied (S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY)'
        : ((error as { code?: string }).code ?? (error instanceof Error ? error.message : String(error)));
    throw new Error(
      `S3_BUCKET: the bucket "${settings.bucket}" could not be reached at ${settings.endpoint ?? `AWS (${settings.region})`}: ${reason}`,
      { cause: error },
    );
  }
  return storage;
}
