// The floor for one Node.js process: a bare `node:http` server (no framework, no database) answering each
// path with the bytes PickReel answered it with, recorded beforehand. Under the same wrk load, its latency
// is what Node's own event loop and HTTP parser cost on this machine; PickReel cannot do better than that
// in one process (the mixed-traffic row's reference).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { request, waitFor200 } from './http.mjs';
import { spawnTracked } from './procs.mjs';
import { freePort, tempDir } from './util.mjs';

const SERVER = `
import http from 'node:http';
import { readFileSync } from 'node:fs';
const recorded = new Map(
  JSON.parse(readFileSync(process.argv[2], 'utf8')).map(({ path, status, headers, body }) => [
    path,
    { status, headers, body: Buffer.from(body, 'base64') },
  ]),
);
http
  .createServer((req, res) => {
    const answer = recorded.get(req.url);
    if (!answer) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(answer.status, { ...answer.headers, 'content-length': answer.body.length });
    res.end(answer.body);
  })
  .listen(Number(process.argv[3]), '127.0.0.1');
`;

const KEPT_HEADERS = ['content-type', 'content-encoding', 'cache-control', 'etag', 'vary', 'link'];

/**
 * Records what `url` answers each distinct path of `requests` with (their headers sent, plus `headers`),
 * and starts the bare server answering the same. Resolves { url, pid, stop }.
 */
export async function startNodeReplay(url, requests, headers = {}) {
  const seen = new Map();
  for (const { path: urlPath, headers: own = {} } of requests) {
    if (seen.has(urlPath)) continue;
    const res = await request(url + urlPath, { headers: { ...headers, ...own } });
    const kept = Object.fromEntries(
      KEPT_HEADERS.filter((h) => res.headers[h]).map((h) => [h, res.headers[h]]),
    );
    seen.set(urlPath, {
      path: urlPath,
      status: res.status,
      headers: kept,
      body: res.body.toString('base64'),
    });
  }
  const dir = tempDir('pickreel-bench-replay-');
  const answers = path.join(dir, 'answers.json');
  const script = path.join(dir, 'server.mjs');
  writeFileSync(answers, JSON.stringify([...seen.values()]));
  writeFileSync(script, SERVER);
  const port = await freePort();
  const proc = spawnTracked(process.execPath, [script, answers, String(port)], { stdio: 'ignore' });
  const replayUrl = `http://127.0.0.1:${port}`;
  await waitFor200(replayUrl + requests[0].path, { deadlineMs: 10_000, exited: proc.exited });
  return { url: replayUrl, pid: proc.pid, paths: seen.size, stop: () => proc.stop({ graceMs: 5000 }) };
}
