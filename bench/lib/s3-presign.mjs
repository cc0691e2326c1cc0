// A presigned S3 URL (SigV4 in the query, payload unsigned) for the bench's plain requests straight to a
// store: a real store checks signatures; the tests' s3rver ignores them.
import { createHash, createHmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';

class Sha256 {
  constructor(secret) {
    this.hash = secret ? createHmac('sha256', secret) : createHash('sha256');
  }
  update(data) {
    this.hash.update(data);
  }
  async digest() {
    return new Uint8Array(this.hash.digest());
  }
}

/** `method` on `url` (path style: endpoint/bucket/key), valid for `expiresIn` seconds. */
export async function presignedUrl(url, method, { accessKeyId, secretAccessKey }, expiresIn = 3600) {
  const signer = new SignatureV4({
    service: 's3',
    region: 'us-east-1',
    sha256: Sha256,
    uriEscapePath: false,
    credentials: { accessKeyId, secretAccessKey },
  });
  const u = new URL(url);
  const signed = await signer.presign(
    {
      method,
      protocol: u.protocol,
      hostname: u.hostname,
      port: Number(u.port) || undefined,
      path: u.pathname,
      headers: { host: u.host, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
      query: {},
    },
    { expiresIn, unsignableHeaders: new Set(['x-amz-content-sha256']) },
  );
  return `${u.origin}${u.pathname}?${new URLSearchParams(signed.query).toString()}`;
}
