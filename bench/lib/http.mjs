// Minimal HTTP client for the bench itself (set-up requests and readiness polling), 127.0.0.1 only.
import http from 'node:http';
import net from 'node:net';

function assertLocal(url) {
  const { hostname } = new URL(url);
  if (hostname !== '127.0.0.1') throw new Error(`bench traffic must stay on 127.0.0.1, not ${hostname}`);
}

/** One request, no keep-alive; resolves { status, headers, body: Buffer }. */
export function request(url, { method = 'GET', headers = {}, body, timeoutMs = 5000 } = {}) {
  assertLocal(url);
  return new Promise((resolve, reject) => {
    const payload =
      body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    const req = http.request(
      url,
      {
        method,
        agent: false,
        headers: {
          ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
          ...headers,
        },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timeout after ${timeoutMs} ms: ${method} ${url}`)));
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

/**
 * Polls until `url` answers 200, the process exits, or the deadline passes. Resolves { at, status }: `at` is
 * the performance.now() of the 200. When the server answers but not with 200, polling goes on for
 * `otherStatusGraceMs` and then resolves the time of that first answer with its status, so that a broken
 * route is reported as such instead of as a 60-second start.
 */
export async function waitForReady(
  url,
  { deadlineMs = 60_000, intervalMs = 5, otherStatusGraceMs = 2000, exited } = {},
) {
  const end = performance.now() + deadlineMs;
  let gone = false;
  let lastError = '';
  let firstAnswer = null;
  exited?.then(() => (gone = true));
  while (performance.now() < end) {
    if (gone) throw new Error(`process exited before ${url} answered 200 (${lastError})`);
    try {
      const res = await request(url, { timeoutMs: 2000 });
      if (res.status === 200) return { at: performance.now(), status: 200 };
      firstAnswer ??= { at: performance.now(), status: res.status, body: res.body.toString().slice(0, 200) };
      if (performance.now() - firstAnswer.at > otherStatusGraceMs) return firstAnswer;
      lastError = `status ${res.status}`;
    } catch (error) {
      lastError = error.code ?? error.message;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  if (firstAnswer) return firstAnswer;
  throw new Error(`${url} did not answer within ${deadlineMs} ms (last: ${lastError})`);
}

/** Like waitForReady, but anything other than a 200 is an error. */
export async function waitFor200(url, options) {
  const ready = await waitForReady(url, options);
  if (ready.status !== 200) throw new Error(`${url} answered ${ready.status}, not 200: ${ready.body}`);
  return ready.at;
}

/** The exact bytes of a response on the wire: { headerBytes, bodyBytes, head } (Connection: close). */
export function rawGet(url, headers = {}) {
  assertLocal(url);
  const { hostname, port, pathname, search } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks = [];
    socket.setTimeout(5000, () => socket.destroy(new Error('rawGet timeout')));
    socket.on('connect', () => {
      const lines = [`GET ${pathname}${search} HTTP/1.1`, `Host: ${hostname}:${port}`, 'Connection: close'];
      for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const all = Buffer.concat(chunks);
      const split = all.indexOf('\r\n\r\n');
      resolve({
        headerBytes: split + 4,
        bodyBytes: all.length - split - 4,
        head: all.subarray(0, split).toString(),
      });
    });
  });
}
