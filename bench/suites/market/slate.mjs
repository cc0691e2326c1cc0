// The `market` suite's market: games on the provider's stand-in (run in the bench process, the built
// stand-in.js), their books' prices moved on demand, the server's JSON log lines read as they come, and a
// keep-alive client that posts picks as a browser would (multipart, one request at a time).
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from '../../lib/server.mjs';
import { sleep } from '../../lib/util.mjs';

const marketDist = path.join(root, 'dist/node/server/features/market');

/** The built stand-in and the adapter's parser (what the server runs on a provider's answer). */
export async function loadMarketCode() {
  const standIn = await import(pathToFileURL(path.join(marketDist, 'stand-in.js')).href);
  const adapter = await import(pathToFileURL(path.join(marketDist, 'odds-api-provider.js')).href);
  return {
    startMarketStandIn: standIn.startMarketStandIn,
    books: standIn.DEMO_BOOKS,
    parseOddsAnswer: adapter.parseOddsAnswer,
  };
}

/** The adapter's query (odds-api-provider.ts ODDS_QUERY): every book of the US region, three markets. */
export const ODDS_QUERY = 'regions=us&markets=h2h,spreads,totals&oddsFormat=american&dateFormat=iso';

const isoSecond = (ms) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

/**
 * `count` games of one league on the stand-in, the first at `firstStart` (ms) and one every `spacingMs`
 * after it (0: all at once), each with its main spread and total line. Teams are named per game, so a
 * leg finds exactly its own game by teams too.
 */
export function addGames(standIn, { league, count, firstStart, spacingMs, prefix, spread, total }) {
  const games = [];
  for (let i = 0; i < count; i++) {
    const game = standIn.addGame({
      league,
      home: `${prefix} Home ${i}`,
      away: `${prefix} Away ${i}`,
      startsAt: isoSecond(firstStart + i * spacingMs),
    });
    games.push({ ...game, index: i, spread: spread(i), total: total(i) });
  }
  return games;
}

/**
 * Every book prices the game's moneyline, spread and total (two sides each, 6 prices a book). `version`
 * moves every one of those prices from one version to the next (a cycle of 4 steps of 5 cents).
 */
export function gameBooks(books, game, version) {
  const o = 5 + (version % 4) * 5;
  return books.map(({ key, title }, b) => ({
    book: key,
    title,
    moneyline: { home: -(140 + o + b), away: 120 + o + b },
    spread: { home: game.spread, homePrice: -(105 + o + b), awayPrice: -(130 - o + b) },
    total: { point: game.total, over: -(105 + o + b), under: -(130 - o + b) },
  }));
}

export function setOdds(standIn, books, games, version) {
  for (const game of games) standIn.setOdds(game.id, gameBooks(books, game, version));
}

/** The server's JSON log lines, read as the file grows; each line handed out once per `take`. */
export class ServerLog {
  constructor(file) {
    this.file = file;
    this.offset = 0;
    this.lines = [];
    this.taken = new Map();
  }

  #read() {
    if (!existsSync(this.file)) return;
    const buffer = readFileSync(this.file);
    if (buffer.length <= this.offset) return;
    const chunk = buffer.subarray(this.offset);
    const end = chunk.lastIndexOf(0x0a);
    if (end < 0) return;
    this.offset += end + 1;
    for (const text of chunk.subarray(0, end).toString('utf8').split('\n')) {
      try {
        this.lines.push(JSON.parse(text));
      } catch {
        /* not a JSON line (npm's, a build's) */
      }
    }
  }

  /** Lines with this message not handed out before (and matching `where`). */
  take(msg, where = () => true) {
    this.#read();
    const from = this.taken.get(msg) ?? 0;
    const out = [];
    let last = from;
    for (let i = from; i < this.lines.length; i++) {
      if (this.lines[i].msg !== msg) continue;
      last = i + 1;
      if (where(this.lines[i])) out.push(this.lines[i]);
    }
    this.taken.set(msg, last);
    return out;
  }

  count(msg) {
    this.#read();
    return this.lines.filter((line) => line.msg === msg).length;
  }

  /** The next line with this message (pino writes it a moment after the answer may have gone). */
  async next(msg, where = () => true, timeoutMs = 5000) {
    const end = performance.now() + timeoutMs;
    for (;;) {
      const [line] = this.take(msg, where);
      if (line) return line;
      if (performance.now() > end) return null;
      await sleep(20);
    }
  }
}

/** multipart/form-data as the browser's FormData sends the upload form (tests/setup/upload-requests.ts). */
export function multipart(fields) {
  const boundary = `----pickreelbench${randomBytes(8).toString('hex')}`;
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return {
    body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** One kept-alive connection to 127.0.0.1, one request at a time: what one browser tab does. */
export function oneConnection(baseUrl) {
  if (new URL(baseUrl).hostname !== '127.0.0.1') throw new Error('bench traffic stays on 127.0.0.1');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return {
    send(method, urlPath, { headers = {}, body } = {}) {
      return new Promise((resolve, reject) => {
        const started = performance.now();
        const req = http.request(
          `${baseUrl}${urlPath}`,
          {
            method,
            agent,
            headers: { ...headers, ...(body ? { 'content-length': body.length } : {}) },
            timeout: 60_000,
          },
          (res) => {
            const chunks = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () =>
              resolve({
                status: res.statusCode,
                body: Buffer.concat(chunks),
                ms: performance.now() - started,
              }),
            );
            res.on('error', reject);
          },
        );
        req.on('timeout', () => req.destroy(new Error(`timeout: ${method} ${urlPath}`)));
        req.on('error', reject);
        req.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}

/** Nearest-rank percentile of a list of numbers. */
export function percentile(values, p) {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
