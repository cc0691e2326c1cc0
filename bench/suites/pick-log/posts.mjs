// Real posts through HTTP, as the upload form sends them (tests/api/pick-log.test.ts): POST /api/videos,
// multipart, an external YouTube link and one leg, each client signed in as a capper, on its own kept-alive
// connection and its own X-Forwarded-For (the server runs with TRUST_PROXY=true, as the browser tests do).
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { request } from '../../lib/http.mjs';

/** The upload form's fields (tests/setup/upload-requests.ts VALID_FIELDS) for an external link. */
const FIELDS = {
  title: 'Lakers at Celtics, Friday',
  description: 'Line movement and injuries, explained',
  emailInformation: 'Lakers +4.5 (2 units)',
  price: '25',
  category: 'General',
  duration: '',
  isPremium: 'true',
  isExternalVideo: 'true',
  externalVideoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
};
/** A slate of games the posts spread over (a post on a known game reuses its event row). */
export const GAMES = 1000;
const PASSWORD = 'bench-password-123';

export const clientIp = (k) => `198.51.100.${1 + (k % 250)}`;

/** One leg on game `g`, two days ahead (every leg must start in the future). */
export function legsOf(g, startsAt) {
  return JSON.stringify([
    {
      league: 'NBA',
      home: `Bench Home ${g}`,
      away: `Bench Away ${g}`,
      startsAt,
      market: 'moneyline',
      side: `Bench Home ${g}`,
      line: null,
      odds: -110,
      units: 1,
    },
  ]);
}

export function postFields(g, startsAt) {
  return { ...FIELDS, legs: legsOf(g, startsAt) };
}

function multipart(fields) {
  const boundary = `----pickreel${randomBytes(8).toString('hex')}`;
  const chunks = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  chunks.push(`--${boundary}--\r\n`);
  return { body: Buffer.from(chunks.join('')), type: `multipart/form-data; boundary=${boundary}` };
}

/** Registers `count` cappers through the API, each from its own address; their session cookies. */
export async function registerCappers(url, count, prefix) {
  const cookies = [];
  for (let k = 0; k < count; k++) {
    const res = await request(`${url}/api/register`, {
      method: 'POST',
      body: { username: `${prefix}${String(k + 1).padStart(2, '0')}`, password: PASSWORD },
      headers: { 'x-forwarded-for': clientIp(k) },
      timeoutMs: 30_000,
    });
    if (res.status !== 201) throw new Error(`POST /api/register answered ${res.status}: ${res.body}`);
    const cookie = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('pickreel_sid='));
    if (!cookie) throw new Error('POST /api/register sent no pickreel_sid cookie');
    cookies.push(cookie.split(';')[0]);
  }
  return cookies;
}

/** The first leg's start: two days ahead, on the hour (the same for every post of a run). */
export const startsAtOf = (now = Date.now()) =>
  new Date(Math.ceil((now + 48 * 3600_000) / 3600_000) * 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * `clients` loops, each posting one video after another until `stop()`. `onWindow` marks the measured
 * window: posts that *finish* inside it are counted, with their latency. Returns a controller.
 */
export function startPosting(url, { clients, cookies, startsAt }) {
  const { hostname, port } = new URL(url);
  const state = { measuring: false, stopping: false, latencies: [], ok: 0, statuses: {}, errors: [] };
  let game = 0;
  const loops = Array.from({ length: clients }, async (_, k) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const cookie = cookies[k % cookies.length];
    try {
      while (!state.stopping) {
        const { body, type } = multipart(postFields(1 + (game++ % GAMES), startsAt));
        const started = performance.now();
        let status;
        try {
          status = await new Promise((resolve, reject) => {
            const req = http.request(
              {
                hostname,
                port,
                path: '/api/videos',
                method: 'POST',
                agent,
                headers: {
                  'content-type': type,
                  'content-length': body.length,
                  cookie,
                  'x-forwarded-for': clientIp(k),
                },
                timeout: 60_000,
              },
              (res) => {
                const chunks = [];
                res.on('data', (c) => chunks.push(c));
                res.on('end', () => {
                  if (res.statusCode !== 201 && state.errors.length < 5)
                    state.errors.push(`${res.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 300)}`);
                  resolve(res.statusCode);
                });
                res.on('error', reject);
              },
            );
            req.on('timeout', () => req.destroy(new Error('timeout after 60 s')));
            req.on('error', reject);
            req.end(body);
          });
        } catch (error) {
          status = 'socket error';
          if (state.errors.length < 5) state.errors.push(error.message);
        }
        const ms = performance.now() - started;
        if (state.measuring) {
          state.statuses[status] = (state.statuses[status] ?? 0) + 1;
          if (status === 201) {
            state.ok += 1;
            state.latencies.push(ms);
          }
        }
        if (status === 201) state.allOk = (state.allOk ?? 0) + 1;
      }
    } finally {
      agent.destroy();
    }
  });
  return {
    state,
    measure(on) {
      state.measuring = on;
    },
    async stop() {
      state.stopping = true;
      await Promise.all(loops);
      return state;
    },
  };
}

export function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}
