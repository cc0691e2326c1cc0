// Staying up: slow and idle connections are closed, one address cannot hold more than its share
// of sockets, and the media job runner outlives a failure to start. The app listens on a real port here:
// deadlines and socket caps live in Node's HTTP server, which app.inject() never touches.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Video } from '#common/schemas/videos.js';
import type { ConnectionLimits } from '#server/plugins/connection-limits.js';
import { mediaFixture } from '../setup/media-fixtures.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';
import { multipart, VALID_FIELDS } from '../setup/upload-requests.js';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

async function listening(limits: Partial<ConnectionLimits>): Promise<number> {
  t = await createTestApp({ connectionLimits: limits });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return (t.app.server.address() as net.AddressInfo).port;
}

interface Client {
  socket: net.Socket;
  received: () => string;
  closed: Promise<void>;
}

/** A raw TCP client (optionally from another loopback address, so several "clients" can be told apart). */
function connect(port: number, localAddress?: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = net.connect({ port, host: '127.0.0.1', ...(localAddress && { localAddress }) });
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('error', () => {});
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
    socket.once('error', reject);
  });
}

const isOpen = (client: Client) => !client.socket.destroyed && client.socket.readyState === 'open';

/** Whether the server has closed the socket by the time a request on a fresh connection round-trips. */
async function healthOk(port: number, localAddress?: string): Promise<boolean> {
  const client = await connect(port, localAddress);
  client.socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  await client.closed;
  return client.received().startsWith('HTTP/1.1 200');
}

describe('slow and idle connections', () => {
  it('closes a connection that trickles its headers one line at a time', async () => {
    const port = await listening({ headersTimeoutMs: 500, checkIntervalMs: 100 });
    const client = await connect(port);
    client.socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n');
    let line = 0;
    const trickle = setInterval(() => {
      if (isOpen(client)) client.socket.write(`X-Slow-${line++}: still coming\r\n`);
    }, 100);
    await client.closed;
    clearInterval(trickle);
    expect(client.received()).not.toContain('200 OK');
    expect(await healthOk(port)).toBe(true);
  });

  it('closes a connection that never sends a byte', async () => {
    const port = await listening({ headersTimeoutMs: 500, checkIntervalMs: 100 });
    const client = await connect(port);
    await client.closed;
    expect(client.received()).not.toContain('200 OK');
  });

  it('closes an idle keep-alive connection after its request', async () => {
    const port = await listening({ keepAliveTimeoutMs: 300 });
    const client = await connect(port);
    client.socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 200/);
  });
});

describe('sockets per address', () => {
  it('refuses an address its sockets beyond the cap while other addresses are served', async () => {
    const port = await listening({ maxConnectionsPerAddress: 5 });
    const held = await Promise.all(Array.from({ length: 5 }, () => connect(port, '127.0.0.2')));
    const extra = await connect(port, '127.0.0.2');
    extra.socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
    await extra.closed;
    expect(extra.received()).toBe('');
    expect(held.every(isOpen)).toBe(true);
    expect(await healthOk(port, '127.0.0.3')).toBe(true);

    // A socket given back makes room again.
    held[0]!.socket.destroy();
    await held[0]!.closed;
    await expect.poll(() => healthOk(port, '127.0.0.2'), { interval: 50 }).toBe(true);
    for (const client of held) client.socket.destroy();
  });
});

describe('the media job runner', () => {
  it('logs a failure to start, tries again and then processes the queue', async () => {
    t = await createTestApp();
    const app = t.app;
    // The scratch folder's place is taken by a file: preparing the runner fails until it is gone.
    const workRoot = path.join(t.config.dataDir, 'work');
    rmSync(workRoot, { recursive: true, force: true });
    writeFileSync(workRoot, 'not a folder');
    const owner = await registerUser(app, {}, '10.11.0.1');
    const { payload, headers } = multipart(VALID_FIELDS, {
      name: 'pick.mov',
      content: readFileSync(mediaFixture('h264Mov')),
    });
    const created = await app.inject({
      method: 'POST',
      url: '/api/videos',
      payload,
      headers: { ...headers, cookie: owner.cookie },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<Video>().id;

    app.mediaJobs.start();
    await expect.poll(() => t!.logs(), { timeout: 10_000 }).toContain('media job runner could not start');
    rmSync(workRoot, { force: true });
    await expect
      .poll(
        async () =>
          (
            await app.inject({ method: 'GET', url: `/api/videos/${id}`, headers: { cookie: owner.cookie } })
          ).json<Video>().transcodingStatus,
        { timeout: 25_000, interval: 200 },
      )
      .toBe('ready');
  }, 40_000);
});

describe('a slow query', () => {
  it('does not hold other requests: the cached catalog answers while it runs', async () => {
    t = await createTestApp();
    const { app, database } = t;
    expect((await app.inject({ method: 'GET', url: '/api/videos' })).statusCode).toBe(200); // now cached
    let slowDone = false;
    // A query that keeps the database busy for seconds (on the embedded database, its thread).
    const slow = database.exec('select pg_sleep(3)').then(() => {
      slowDone = true;
    });
    // A timer and a request, both of which need this process's event loop while the query runs.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const cached = await app.inject({ method: 'GET', url: '/api/videos' });
    expect(cached.statusCode).toBe(200);
    expect(slowDone).toBe(false);
    await slow;
  }, 30_000);
});
