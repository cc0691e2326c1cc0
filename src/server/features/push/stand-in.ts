// A local push service (RFC 8030) for the API and browser tests (docs/decisions/038): it takes a push as FCM
// or Mozilla's service would, checks its VAPID Authorization (RFC 8292: an ES256 JWT for this origin, signed
// by the key it names) and records it. It also plays the browser's side: it makes a subscription's keys and
// decrypts what was pushed to them (RFC 8291, aes128gcm), so a test reads the text a browser would show.
import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  hkdfSync,
  randomBytes,
  verify,
  type ECDH,
} from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedPush {
  /** The subscription's id: the endpoint's last path segment. */
  id: string;
  ttl: string | undefined;
  urgency: string | undefined;
  contentEncoding: string | undefined;
  /** The JWT's claims, once its signature was checked. */
  claims: { aud: string; exp: number; sub: string };
  vapidPublicKey: string;
  body: Buffer;
}

export interface StandInSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** Decrypts a push sent to this subscription (as the browser would). */
  decrypt(body: Buffer): string;
}

export interface PushStandIn {
  /** http://127.0.0.1:<port>: the origin to list in PUSH_SERVICE_HOSTS. */
  origin: string;
  received: ReceivedPush[];
  /** Refused pushes (a bad Authorization), with why. */
  refused: string[];
  /** A new subscription on this service, with keys made here. */
  subscribe(): StandInSubscription;
  /** The next `times` pushes to this subscription are answered `status` (410: gone, 500: down, 400, 307…). */
  answer(endpoint: string, status: number, times?: number): void;
  close(): Promise<void>;
}

const b64 = (value: Buffer) => value.toString('base64url');

/** Checks `vapid t=<jwt>, k=<key>` (RFC 8292); answers its claims and key, or throws why not. */
function checkVapid(header: string | undefined, origin: string, vapidPublicKey: string | undefined) {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!match) throw new Error('no vapid Authorization');
  const [, jwt, key] = match as unknown as [string, string, string];
  if (vapidPublicKey && key !== vapidPublicKey) throw new Error('another VAPID key than expected');
  const [head, payload, signature] = jwt.split('.');
  if (!head || !payload || !signature) throw new Error('malformed JWT');
  const header_ = JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg?: string };
  if (header_.alg !== 'ES256') throw new Error('JWT not ES256');
  const point = Buffer.from(key, 'base64url');
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not a P-256 point');
  const publicKey = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64(point.subarray(1, 33)), y: b64(point.subarray(33)) },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${head}.${payload}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) throw new Error('JWT signature does not match k');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as ReceivedPush['claims'];
  if (claims.aud !== origin) throw new Error(`JWT aud ${claims.aud} is not ${origin}`);
  const now = Date.now() / 1000;
  if (!(claims.exp > now && claims.exp <= now + 24 * 3600)) throw new Error('JWT exp not within 24 h');
  if (!/^(mailto:|https:)/.test(claims.sub)) throw new Error('JWT sub is not mailto: or https:');
  return { claims, key };
}

/** RFC 8291 on the user agent's side: one aes128gcm record, its padding delimiter removed. */
function decryptPush(body: Buffer, ua: ECDH, authSecret: Buffer): string {
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const asPublic = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const shared = ua.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ua.getPublicKey(), asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/** Starts the stand-in on 127.0.0.1; `vapidPublicKey` makes it refuse pushes signed by any other key. */
export async function startPushStandIn(
  options: { port?: number; vapidPublicKey?: string } = {},
): Promise<PushStandIn> {
  const received: ReceivedPush[] = [];
  const refused: string[] = [];
  const answers = new Map<string, { status: number; times: number }>();
  let origin = '';

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const id = (request.url ?? '').split('/').pop() ?? '';
      if (request.method !== 'POST' || !request.url?.startsWith('/push/')) {
        response.writeHead(404).end();
        return;
      }
      const planned = answers.get(id);
      if (planned && planned.times > 0) {
        planned.times -= 1;
        // A redirect points at this stand-in's own endpoint `redirected`: a sender that followed it shows there.
        const location =
          planned.status >= 300 && planned.status < 400 ? { location: `${origin}/push/redirected` } : {};
        response
          .writeHead(planned.status, { 'content-type': 'text/plain', ...location })
          .end('planned answer');
        return;
      }
      try {
        const { claims, key } = checkVapid(request.headers.authorization, origin, options.vapidPublicKey);
        if (request.headers.ttl === undefined) throw new Error('no TTL header');
        received.push({
          id,
          ttl: request.headers.ttl as string,
          urgency: request.headers.urgency as string | undefined,
          contentEncoding: request.headers['content-encoding'],
          claims,
          vapidPublicKey: key,
          body: Buffer.concat(chunks),
        });
        response.writeHead(201, { location: `${origin}/message/${received.length}` }).end();
      } catch (error) {
        refused.push((error as Error).message);
        response.writeHead(403, { 'content-type': 'text/plain' }).end((error as Error).message);
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    received,
    refused,
    subscribe() {
      const ua = createECDH('prime256v1');
      ua.generateKeys();
      const authSecret = randomBytes(16);
      return {
        endpoint: `${origin}/push/${randomBytes(12).toString('hex')}`,
        keys: { p256dh: b64(ua.getPublicKey()), auth: b64(authSecret) },
        decrypt: (body) => decryptPush(body, ua, authSecret),
      };
    },
    answer(endpoint, status, times = 1) {
      answers.set(endpoint.split('/').pop() ?? '', { status, times });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
