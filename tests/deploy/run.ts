// The deployment test: the site of docs/deployment.md on one machine. PostgreSQL, an S3-compatible
// server, two web instances and one worker of the built app, configured by deploy/*.env, behind nginx
// configured by deploy/nginx-pickreel.conf.template (TLS with a throw-away certificate). Then, over HTTP:
// signed in on one instance, signed in on the other; sign-in limits counted across both; a 200 MiB tus
// upload started on A, A killed mid-chunk, resumed through the balancer, the stored original's SHA-256 the
// source's; transcoded by the worker; bought and downloaded through the other instance.
//
//   npx tsx tests/deploy/run.ts        (.ci/run calls it; ~2 to 4 minutes)
//
// Needs: nginx (Debian's nginx-light; NGINX_PATH), openssl, the PostgreSQL server at DEPLOY_PG_URL
// (default postgres://postgres@127.0.0.1:5432/postgres, where it creates and drops `pickreel_deploy`).
// Exit code 0 when every step passed, 1 otherwise; every process and temporary folder it made is removed
// in all cases. DEPLOY_KEEP_TMP=1 keeps the folder (logs, nginx and env files) for a look afterwards.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  chmodSync,
  createReadStream,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import pg from 'pg';
import { packageRoot } from '#server/lib/package-root.js';
import { serverNodeFlags } from '#server/lib/testing/server-node-flags.js';
import { freePort } from '../setup/free-port.js';
import { mediaFixture } from '../setup/media-fixtures.js';
import { startTestS3Server, TEST_S3_CREDENTIALS, type TestS3Server } from '../setup/s3-server.js';
import { tusMetadata, VALID_FIELDS } from '../setup/upload-requests.js';

const root = packageRoot();
const deployDir = path.join(root, 'deploy');
const UPLOAD_BYTES = 200 * 1024 * 1024;
const CHUNK_BYTES = 8 * 1024 * 1024; // one S3 part per PATCH; the browser's 2 MB would cost ~4x the traffic
const DATABASE = 'pickreel_deploy';
const PG_ADMIN_URL = process.env.DEPLOY_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const keepTmp = process.env.DEPLOY_KEEP_TMP === '1';
const started = performance.now();

// ---------------------------------------------------------------------------------------------------------
// Output and clean-up

const seconds = (from: number) => ((performance.now() - from) / 1000).toFixed(1);
const say = (line: string) => console.log(line);

class StepFailed extends Error {}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new StepFailed(message);
}

async function step<T>(title: string, run: () => Promise<T>): Promise<T> {
  const at = performance.now();
  say(`\n== ${title}`);
  const value = await run();
  say(`   ok (${seconds(at)} s)`);
  return value;
}

const cleanups: Array<{ what: string; run: () => Promise<void> | void }> = [];
const onCleanup = (what: string, run: () => Promise<void> | void) => cleanups.push({ what, run });

let cleaningUp: Promise<void> | null = null;
function cleanUp(): Promise<void> {
  cleaningUp ??= (async () => {
    for (const { what, run } of cleanups.reverse()) {
      try {
        await run();
      } catch (error) {
        console.error(`   clean-up of ${what} failed: ${String(error)}`);
      }
    }
  })();
  return cleaningUp;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping`);
    void cleanUp().then(() => process.exit(1));
  });
}

// ---------------------------------------------------------------------------------------------------------
// Processes: each in its own process group, killed with the group at the end

interface Proc {
  name: string;
  child: ChildProcess;
  logFile: string;
  exited: Promise<number | null>;
}

const procs = new Set<Proc>();

function startProc(
  name: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  logFile: string,
): Proc {
  const fd = openSync(logFile, 'a');
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', fd, fd], detached: true });
  closeSync(fd);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const proc = { name, child, logFile, exited };
  procs.add(proc);
  void exited.then(() => procs.delete(proc));
  return proc;
}

async function killProc(proc: Proc, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  try {
    process.kill(-proc.child.pid!, signal);
  } catch {
    return; // already gone
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-proc.child.pid!, 'SIGKILL');
    } catch {
      // gone
    }
  }, 10_000);
  await proc.exited;
  clearTimeout(timer);
}

onCleanup('the processes', async () => {
  await Promise.all([...procs].map((proc) => killProc(proc, 'SIGKILL')));
});

const tail = (file: string, lines = 25) =>
  existsSync(file) ? readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n') : '(no log)';

// ---------------------------------------------------------------------------------------------------------
// HTTP: node:http(s) rather than fetch, to trust the throw-away certificate and to stream bodies

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  sha256?: string;
  bytes: number;
}

interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer | string | object;
  /** Hash the body instead of keeping it. */
  hash?: boolean;
  /** Called once the request is under way with half its body written; the rest follows when it resolves. */
  midway?: () => Promise<void>;
}

let tlsCa: string | undefined;

function request(url: string, options: RequestOptions = {}): Promise<Answer> {
  const target = new URL(url);
  const headers: Record<string, string> = { ...options.headers };
  let body: Buffer | undefined;
  if (Buffer.isBuffer(options.body)) body = options.body;
  else if (typeof options.body === 'string') body = Buffer.from(options.body);
  else if (options.body !== undefined) {
    body = Buffer.from(JSON.stringify(options.body));
    headers['content-type'] ??= 'application/json';
  }
  if (body) headers['content-length'] = String(body.length);
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(
      target,
      { method: options.method ?? 'GET', headers, ca: tlsCa, agent: false },
      (res) => {
        const hash = options.hash ? createHash('sha256') : null;
        const chunks: Buffer[] = [];
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (hash) hash.update(chunk);
          else chunks.push(chunk);
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            sha256: hash?.digest('hex'),
            bytes,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.setTimeout(180_000, () => req.destroy(new Error(`no answer from ${options.method ?? 'GET'} ${url}`)));
    if (!body) return req.end();
    if (!options.midway) return req.end(body);
    const half = Math.floor(body.length / 2);
    req.write(body.subarray(0, half), () => {
      void options.midway!().then(() => {
        if (!req.destroyed) req.end(body.subarray(half));
      }, reject);
    });
  });
}

const json = <T>(answer: Answer): T => JSON.parse(answer.body.toString('utf8')) as T;
const describe = (answer: Answer) => `${answer.status} ${answer.body.toString('utf8').slice(0, 300)}`;

function sessionCookie(answer: Answer): { cookie: string; attributes: string } {
  const line = [answer.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('pickreel_sid='));
  check(line, `no pickreel_sid cookie in the answer (${describe(answer)})`);
  return { cookie: line.split(';')[0]!, attributes: line };
}

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  logs: Proc[] = [],
) {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      if (error instanceof StepFailed) throw error;
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const logText = logs.map((p) => `--- ${p.name} (${p.logFile}) ---\n${tail(p.logFile)}`).join('\n');
  throw new StepFailed(
    `timed out after ${timeoutMs / 1000} s waiting for ${what}${last ? ` (${String(last)})` : ''}\n${logText}`,
  );
}

// ---------------------------------------------------------------------------------------------------------
// The deploy/ files

/** systemd's EnvironmentFile, the part these files use: KEY=value lines, # comments. */
function readEnvFile(name: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const raw of readFileSync(path.join(deployDir, name), 'utf8').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    check(match, `deploy/${name}: not a KEY=value line: ${line}`);
    values[match[1]!] = match[2]!;
  }
  return values;
}

/** envsubst with the names given, as the guide runs it: any other `$name` is nginx's and stays. */
function substitute(template: string, values: Record<string, string>): string {
  const text = template.replace(/\$\{(PICKREEL_[A-Z0-9_]+)\}/g, (whole, name: string) => {
    check(name in values, `the nginx template names \${${name}}, which the test does not fill in`);
    return values[name]!;
  });
  return text;
}

/** The built app is what runs: built now if dist/ is missing or older than src/ (as `npm start` would). */
function ensureBuilt(): void {
  const newest = (dir: string): number =>
    readdirSync(dir, { withFileTypes: true }).reduce((max, entry) => {
      const full = path.join(dir, entry.name);
      return Math.max(max, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
    }, 0);
  const built = (file: string) => (existsSync(file) ? statSync(file).mtimeMs : 0);
  const server = path.join(root, 'dist/node/server/main.js');
  const client = path.join(root, 'dist/client/index.html');
  const src = (p: string) => path.join(root, 'src', p);
  const stale =
    built(server) < Math.max(newest(src('server')), newest(src('common'))) ||
    built(client) < Math.max(newest(src('client')), newest(src('common')));
  if (!stale) return say('   dist/ is up to date');
  say('   dist/ is missing or older than src/: npm run build');
  const flock = spawnSync('sh', ['-c', 'command -v flock'], { encoding: 'utf8' }).stdout.trim();
  const result = flock
    ? spawnSync(flock, ['/tmp/pickreel-build.lock', 'npm', 'run', 'build'], { cwd: root, stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  check(result.status === 0, 'npm run build failed');
}

function findNginx(): string {
  if (process.env.NGINX_PATH) return process.env.NGINX_PATH;
  const onPath = (process.env.PATH ?? '')
    .split(':')
    .filter(Boolean)
    .map((dir) => path.join(dir, 'nginx'));
  const found = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', ...onPath].find((p) => existsSync(p));
  check(found, 'nginx not found: apt-get install nginx-light (or set NGINX_PATH)');
  return found;
}

/** Does this build read ROLE? Until it does, every instance runs HTTP and jobs alike (ROLE=all). */
function buildKnowsRole(): boolean {
  const config = path.join(root, 'dist/node/server/config.js');
  return existsSync(config) && /\bROLE\b/.test(readFileSync(config, 'utf8'));
}

/**
 * A MOV ffmpeg can transcode, of exactly `bytes` bytes: the tests' small H.264 clip followed by a QuickTime
 * 'free' atom of random bytes, which players and ffmpeg skip (tests/setup/media-fixtures.ts does the same).
 */
function paddedMov(file: string, bytes: number): string {
  const head = readFileSync(mediaFixture('h264Mov'));
  const fd = openSync(file, 'w');
  const hash = createHash('sha256');
  const write = (buffer: Buffer) => {
    writeSync(fd, buffer);
    hash.update(buffer);
  };
  try {
    write(head);
    const atom = bytes - head.length;
    const header = Buffer.alloc(8);
    header.writeUInt32BE(atom, 0);
    header.write('free', 4, 'latin1');
    write(header);
    const chunk = 4 * 1024 * 1024;
    for (let left = atom - 8; left > 0; left -= chunk) write(randomBytes(Math.min(chunk, left)));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

function readChunk(file: string, offset: number, length: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, offset);
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 }))
    hash.update(chunk as Buffer);
  return hash.digest('hex');
}

// ---------------------------------------------------------------------------------------------------------

interface Instance {
  name: string;
  role: 'web' | 'worker';
  url: string;
  env: NodeJS.ProcessEnv;
  logFile: string;
  proc?: Proc;
}

async function main(): Promise<void> {
  say(`PickReel deployment test: 2 web instances + 1 worker, PostgreSQL, an S3-compatible store, nginx`);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'pickreel-deploy-'));
  chmodSync(tmp, 0o755); // nginx's workers run as an unprivileged user when this runs as root
  onCleanup('the temporary folder', () => {
    if (keepTmp) return say(`   kept ${tmp}`);
    rmSync(tmp, { recursive: true, force: true });
  });
  const nginx = findNginx();
  const roleAware = buildKnowsRole();

  await step('Build (the app runs from dist/, as the guide deploys it)', async () => ensureBuilt());

  await step(`PostgreSQL: a fresh database ${DATABASE}`, async () => {
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect().catch((error: unknown) => {
      throw new StepFailed(`cannot reach PostgreSQL at ${PG_ADMIN_URL}: ${String(error)}`);
    });
    await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${DATABASE}`);
    onCleanup('the database', async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`).catch(() => {});
      await admin.end();
    });
  });
  const databaseUrl = (() => {
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${DATABASE}`;
    return url.toString();
  })();

  const s3 = await step(
    'S3-compatible store (@20minutes/s3rver, as the API tests run it) and a bucket',
    async () => {
      const server: TestS3Server = await startTestS3Server(path.join(tmp, 's3'));
      onCleanup('the S3 server', () => server.close());
      const client = new S3Client({
        endpoint: server.endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: TEST_S3_CREDENTIALS,
      });
      await client.send(new CreateBucketCommand({ Bucket: 'pickreel-deploy' }));
      client.destroy();
      say(`   ${server.endpoint}, bucket pickreel-deploy`);
      return server;
    },
  );

  // The env files of the guide, with what names this machine rather than the example site replaced.
  const [portA, portB, portWorker, httpsPort, httpPort] = await Promise.all(
    Array.from({ length: 5 }, () => freePort()),
  );
  const shared = readEnvFile('pickreel.env');
  const web = readEnvFile('web.env');
  const worker = readEnvFile('worker.env');
  const siteSpecific: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    S3_BUCKET: 'pickreel-deploy',
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY_ID: TEST_S3_CREDENTIALS.accessKeyId,
    S3_SECRET_ACCESS_KEY: TEST_S3_CREDENTIALS.secretAccessKey,
    PICK_LOG_ORIGIN: '127.0.0.1/pick-log',
    PICK_LOG_KEY_FILE: path.join(tmp, 'pick-log-key.pem'),
  };
  for (const key of Object.keys(siteSpecific))
    check(key in shared, `deploy/pickreel.env has no ${key}, which the guide says every instance shares`);
  check(
    web.ROLE === 'web' && worker.ROLE === 'worker',
    'deploy/web.env and worker.env must set ROLE=web / ROLE=worker',
  );
  check('TRUST_PROXY' in web, 'deploy/web.env must set TRUST_PROXY');
  const baseEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
  };
  const instance = (name: string, role: 'web' | 'worker', port: number): Instance => {
    const dataDir = path.join(tmp, name);
    return {
      name,
      role,
      url: `http://127.0.0.1:${port}`,
      logFile: path.join(tmp, `${name}.log`),
      env: {
        ...baseEnv,
        ...shared,
        ...(role === 'web' ? web : worker),
        ...siteSpecific,
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: String(port),
        // nginx is on this machine: its address is loopback.
        ...(role === 'web' ? { TRUST_PROXY: 'loopback' } : {}),
      },
    };
  };
  const A = instance('web-a', 'web', portA!);
  const B = instance('web-b', 'web', portB!);
  const W = instance('worker', 'worker', portWorker!);
  say(
    `\n   env: deploy/pickreel.env + web.env / worker.env; this machine's ${[...Object.keys(siteSpecific), 'DATA_DIR', 'HOST', 'PORT', 'TRUST_PROXY (web: loopback)'].join(', ')}`,
  );
  say(
    roleAware
      ? '   ROLE: this build reads it (web ×2 + worker ×1)'
      : '   ROLE: this build does not read it yet: every instance serves HTTP and runs jobs (ROLE=all)',
  );

  const startInstance = async (node: Instance): Promise<void> => {
    node.proc = startProc(
      node.name,
      process.execPath,
      [...(await serverNodeFlags()), 'dist/node/server/main.js'],
      node.env,
      node.logFile,
    );
    const proc = node.proc;
    await waitFor(
      `${node.name} to answer /api/health`,
      async () => {
        if (proc.child.exitCode !== null)
          throw new StepFailed(`${node.name} exited (${proc.child.exitCode}):\n${tail(node.logFile)}`);
        const answer = await request(`${node.url}/api/health`);
        return answer.status === 200 ? true : undefined;
      },
      90_000,
      [proc],
    );
  };

  await step('Start web-a (migrates, makes the pick log key), then web-b and the worker', async () => {
    await startInstance(A);
    await Promise.all([startInstance(B), startInstance(W)]);
    say(`   web-a ${A.url}, web-b ${B.url}, worker ${W.url} (not in the balancer)`);
  });

  const lb = await step(
    'nginx from deploy/nginx-pickreel.conf.template, TLS with a throw-away certificate',
    async () => {
      const cert = path.join(tmp, 'tls.crt');
      const key = path.join(tmp, 'tls.key');
      const made = spawnSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-days',
          '1',
          '-subj',
          '/CN=127.0.0.1',
          '-addext',
          'subjectAltName=IP:127.0.0.1',
          '-keyout',
          key,
          '-out',
          cert,
        ],
        { encoding: 'utf8' },
      );
      check(made.status === 0, `openssl could not make a certificate: ${made.stderr}`);
      tlsCa = readFileSync(cert, 'utf8');
      const site = substitute(readFileSync(path.join(deployDir, 'nginx-pickreel.conf.template'), 'utf8'), {
        PICKREEL_DOMAIN: '127.0.0.1',
        PICKREEL_HTTPS_LISTEN: `127.0.0.1:${httpsPort}`,
        PICKREEL_HTTP_LISTEN: `127.0.0.1:${httpPort}`,
        PICKREEL_TLS_CERT: cert,
        PICKREEL_TLS_KEY: key,
        PICKREEL_WEB_1: `127.0.0.1:${portA}`,
        PICKREEL_WEB_2: `127.0.0.1:${portB}`,
      });
      const dir = path.join(tmp, 'nginx');
      const t = (name: string) => path.join(dir, name);
      spawnSync('mkdir', ['-p', dir]);
      chmodSync(dir, 0o755);
      writeFileSync(t('pickreel.conf'), site);
      // What Debian's /etc/nginx/nginx.conf gives the included file, with this run's own paths.
      writeFileSync(
        t('nginx.conf'),
        `worker_processes 2;
daemon off;
pid ${t('nginx.pid')};
error_log ${t('error.log')} warn;
events { worker_connections 768; }
http {
  sendfile on;
  tcp_nopush on;
  types_hash_max_size 2048;
  default_type application/octet-stream;
  access_log ${t('access.log')};
  client_body_temp_path ${t('client_body')};
  proxy_temp_path ${t('proxy')};
  fastcgi_temp_path ${t('fastcgi')};
  uwsgi_temp_path ${t('uwsgi')};
  scgi_temp_path ${t('scgi')};
  include ${t('pickreel.conf')};
}
`,
      );
      const args = ['-p', dir, '-e', t('error.log'), '-c', t('nginx.conf')];
      const test = spawnSync(nginx, [...args, '-t'], { encoding: 'utf8' });
      check(test.status === 0, `nginx -t refused the configuration:\n${test.stderr}`);
      const proc = startProc('nginx', nginx, args, baseEnv, t('stderr.log'));
      onCleanup('nginx', () => killProc(proc, 'SIGQUIT'));
      const url = `https://127.0.0.1:${httpsPort}`;
      await waitFor(
        'nginx to answer /api/health over TLS',
        async () => ((await request(`${url}/api/health`)).status === 200 ? true : undefined),
        15_000,
        [proc],
      );
      const plain = await request(`http://127.0.0.1:${httpPort}/api/health`);
      check(
        plain.status === 301 && String(plain.headers.location).startsWith('https://'),
        `plain HTTP: ${plain.status}, not a redirect to https`,
      );
      say(`   ${url} -> web-a, web-b; http://127.0.0.1:${httpPort} redirects to https`);
      return { url, proc, dir };
    },
  );

  const password = 'deploy-test-password';
  const register = async (base: string, username: string, xff?: string) =>
    request(`${base}/api/register`, {
      method: 'POST',
      body: { username, password, phoneNumber: '' },
      headers: xff ? { 'x-forwarded-for': xff } : {},
    });
  const suffix = randomBytes(3).toString('hex');

  const capper = await step(
    'Register on web-a; the same session is signed in on web-b and through nginx',
    async () => {
      const answer = await register(A.url, `capper_${suffix}`);
      check(answer.status === 201, `POST /api/register on web-a: ${describe(answer)}`);
      const { cookie } = sessionCookie(answer);
      for (const [where, base] of [
        ['web-b', B.url],
        ['nginx', lb.url],
      ] as const) {
        const user = await request(`${base}/api/user`, { headers: { cookie } });
        check(user.status === 200, `GET /api/user on ${where} with web-a's cookie: ${describe(user)}`);
        check(
          json<{ username: string }>(user).username === `capper_${suffix}`,
          `GET /api/user on ${where}: another user`,
        );
      }
      // Through nginx the app sees https (X-Forwarded-Proto from a trusted peer): the cookie is Secure.
      const viaLb = await register(lb.url, `buyer_${suffix}`);
      check(viaLb.status === 201, `POST /api/register through nginx: ${describe(viaLb)}`);
      const buyer = sessionCookie(viaLb);
      check(
        /;\s*Secure/i.test(buyer.attributes),
        `the session cookie set through nginx is not Secure: ${buyer.attributes}`,
      );
      for (const [where, base] of [
        ['web-a', A.url],
        ['web-b', B.url],
      ] as const) {
        const user = await request(`${base}/api/user`, { headers: { cookie: buyer.cookie } });
        check(
          user.status === 200,
          `GET /api/user on ${where} with the cookie nginx passed on: ${describe(user)}`,
        );
      }
      say('   signed in on web-a, web-b and through nginx with either cookie; Secure behind TLS');
      return { cookie, buyerCookie: buyer.cookie };
    },
  );

  await step('Sign-in limits hold across web-a and web-b', async () => {
    // Per account: 10 failed sign-ins per 15 minutes. Five on each instance would each be under the limit
    // if each counted alone.
    const target = `target_${suffix}`;
    const made = await register(A.url, target, '198.51.100.7');
    check(made.status === 201, `POST /api/register: ${describe(made)}`);
    const login = (base: string, body: object, xff: string) =>
      request(`${base}/api/login`, { method: 'POST', body, headers: { 'x-forwarded-for': xff } });
    for (let i = 0; i < 10; i++) {
      const base = i % 2 === 0 ? A.url : B.url;
      const answer = await login(
        base,
        { username: target, password: 'wrong-password-1' },
        `198.51.100.${10 + i}`,
      );
      check(answer.status === 401, `failed sign-in ${i + 1} on ${base}: ${describe(answer)} (expected 401)`);
    }
    for (const [where, base] of [
      ['web-a', A.url],
      ['web-b', B.url],
    ] as const) {
      const answer = await login(base, { username: target, password }, '198.51.100.40');
      check(
        answer.status === 429,
        `the 11th sign-in, on ${where}, after 5 failures on each: ${describe(answer)} (expected 429)`,
      );
    }
    say('   10 failed sign-ins, 5 on each instance: the account is locked on both');
    // Per address (the client's, from X-Forwarded-For of the trusted balancer): 30 sign-ins a minute.
    const address = '203.0.113.77';
    for (let i = 0; i < 30; i++) {
      const base = i % 2 === 0 ? A.url : B.url;
      const answer = await login(base, { username: `nobody_${suffix}_${i}`, password }, address);
      check(
        answer.status === 401,
        `sign-in ${i + 1} from ${address} on ${base}: ${describe(answer)} (expected 401)`,
      );
    }
    for (const [where, base] of [
      ['web-a', A.url],
      ['web-b', B.url],
    ] as const) {
      const answer = await login(base, { username: `nobody_${suffix}_x`, password }, address);
      check(
        answer.status === 429,
        `sign-in 31 from ${address}, on ${where}, after 15 on each: ${describe(answer)} (expected 429)`,
      );
    }
    say(`   30 sign-ins from ${address}, 15 on each instance: the 31st is refused on both`);
  });

  const upload = await step(
    `A ${UPLOAD_BYTES / 1024 / 1024} MiB tus upload: started on web-a, web-a killed mid-chunk, resumed through nginx`,
    async () => {
      const source = path.join(tmp, 'source.mov');
      const sourceSha = paddedMov(source, UPLOAD_BYTES);
      const tus = { 'tus-resumable': '1.0.0', cookie: capper.cookie };
      const created = await request(`${A.url}/api/uploads`, {
        method: 'POST',
        headers: {
          ...tus,
          'upload-length': String(UPLOAD_BYTES),
          'upload-metadata': tusMetadata({
            ...VALID_FIELDS,
            filename: 'deploy.mov',
            filetype: 'video/quicktime',
          }),
        },
      });
      check(created.status === 201, `POST /api/uploads on web-a: ${describe(created)}`);
      const location = String(created.headers.location ?? '');
      const uploadPath = location.startsWith('http') ? new URL(location).pathname : location;
      check(/^\/api\/uploads\/[^/]+$/.test(uploadPath), `POST /api/uploads: Location ${location}`);

      const patch = (base: string, offset: number, midway?: () => Promise<void>) =>
        request(`${base}${uploadPath}`, {
          method: 'PATCH',
          headers: {
            ...tus,
            'upload-offset': String(offset),
            'content-type': 'application/offset+octet-stream',
          },
          body: readChunk(source, offset, Math.min(CHUNK_BYTES, UPLOAD_BYTES - offset)),
          midway,
        });
      let offset = 0;
      let last: Answer | undefined;
      while (offset < UPLOAD_BYTES / 3) {
        last = await patch(A.url, offset);
        check(last.status === 204, `PATCH at ${offset} on web-a: ${describe(last)}`);
        offset = Number(last.headers['upload-offset']);
      }
      const beforeKill = offset;
      // The next chunk: half of it sent, then web-a is killed.
      const cut = await patch(A.url, offset, () => killProc(A.proc!, 'SIGKILL')).then(
        (answer) => `answered ${answer.status}`,
        (error: unknown) => `failed: ${String(error)}`,
      );
      say(
        `   ${(beforeKill / 1024 / 1024).toFixed(0)} MiB on web-a, then kill -9 in the middle of the next chunk (${cut})`,
      );

      const head = await request(`${lb.url}${uploadPath}`, { method: 'HEAD', headers: tus });
      check(head.status === 200, `HEAD through nginx after the kill: ${describe(head)}`);
      offset = Number(head.headers['upload-offset']);
      check(
        offset >= beforeKill && offset <= beforeKill + CHUNK_BYTES,
        `offset after the kill: ${offset} (had ${beforeKill})`,
      );
      say(`   HEAD through nginx (web-b: web-a is down): resume at ${(offset / 1024 / 1024).toFixed(1)} MiB`);
      while (offset < UPLOAD_BYTES) {
        last = await patch(lb.url, offset);
        // The last chunk's answer is 200 with the new video's id (docs/decisions/007); the others 204.
        check(
          last.status === 204 || last.status === 200,
          `PATCH at ${offset} through nginx: ${describe(last)}`,
        );
        offset = Number(last.headers['upload-offset']);
      }
      check(last?.status === 200, `the last PATCH: ${last && describe(last)}`);
      const videoId = json<{ videoId?: number }>(last).videoId;
      check(
        String(videoId) === last.headers['upload-video-id'],
        `the last PATCH: Upload-Video-Id ${last.headers['upload-video-id']}, body ${describe(last)}`,
      );
      check(typeof videoId === 'number' && videoId > 0, `the last PATCH named no video: ${describe(last)}`);
      say(`   video ${videoId}; source SHA-256 ${sourceSha.slice(0, 16)}…`);
      check(sourceSha === (await sha256File(source)), 'the source file changed on disk');
      return { videoId, sourceSha };
    },
  );

  await step(
    'web-a restarted (as systemd would); the stored original is the source, byte for byte',
    async () => {
      await startInstance(A);
      const original = await request(`${B.url}/media/videos/${upload.videoId}/original.mov`, {
        headers: { cookie: capper.cookie },
        hash: true,
      });
      check(original.status === 200, `the owner's GET of the original on web-b: ${original.status}`);
      check(original.bytes === UPLOAD_BYTES, `the original has ${original.bytes} bytes, not ${UPLOAD_BYTES}`);
      check(
        original.sha256 === upload.sourceSha,
        `SHA-256 of the stored original ${original.sha256} is not the source's ${upload.sourceSha}`,
      );
      say(
        `   GET /media/videos/${upload.videoId}/original.mov on web-b: ${original.bytes} bytes, SHA-256 equal`,
      );
    },
  );

  await step('Transcoded by the worker', async () => {
    const video = await waitFor(
      `video ${upload.videoId} to be transcoded`,
      async () => {
        const answer = await request(`${lb.url}/api/videos/${upload.videoId}`, {
          headers: { cookie: capper.cookie },
        });
        if (answer.status !== 200) return undefined;
        const v = json<{
          transcodingStatus: string;
          transcodingError: string | null;
          videoUrl: string | null;
        }>(answer);
        if (v.transcodingStatus === 'failed')
          throw new StepFailed(`transcoding failed: ${v.transcodingError}`);
        return v.transcodingStatus === 'ready' ? v : undefined;
      },
      180_000,
      [W.proc!, B.proc!, A.proc!],
    );
    const mp4 = await request(`${lb.url}${video.videoUrl}`, { method: 'HEAD' });
    check(mp4.status === 200, `HEAD ${video.videoUrl} through nginx: ${mp4.status}`);
    const ranJob = (node: Instance) =>
      readFileSync(node.logFile, 'utf8')
        .split('\n')
        .some((line) => line.includes('"media job done"') && line.includes(`"videoId":${upload.videoId}`));
    const who = [A, B, W].filter(ranJob).map((n) => n.name);
    say(
      `   ready; ${video.videoUrl} answers through nginx; the job ran on: ${who.join(', ') || '(no log line)'}`,
    );
    if (roleAware)
      check(
        who.length === 1 && who[0] === 'worker',
        `the media job ran on ${who.join(', ') || 'no instance'}, not on the worker alone`,
      );
    else say('   (this build has no ROLE: any instance may run the job, so which one is not checked)');
  });

  await step(
    'Bought with the sandbox card and downloaded through web-a (the upload finished on web-b)',
    async () => {
      const headers = { cookie: capper.buyerCookie };
      const denied = await request(`${A.url}/media/videos/${upload.videoId}/original.mov`, {
        headers,
        method: 'HEAD',
      });
      check(denied.status === 403, `the original before buying: ${denied.status} (expected 403)`);
      const intent = await request(`${A.url}/api/create-payment-intent`, {
        method: 'POST',
        headers,
        body: { videoId: upload.videoId },
      });
      check(intent.status === 200, `POST /api/create-payment-intent on web-a: ${describe(intent)}`);
      const { clientSecret, paymentIntentId } = json<{ clientSecret: string; paymentIntentId: string }>(
        intent,
      );
      const card = { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2099, cvc: '123' };
      const confirmed = await request(`${A.url}/api/payments/sandbox/confirm`, {
        method: 'POST',
        headers,
        body: { clientSecret, card },
      });
      check(
        confirmed.status === 200 && json<{ status: string }>(confirmed).status === 'succeeded',
        `sandbox confirm on web-a: ${describe(confirmed)}`,
      );
      const complete = await request(`${A.url}/api/payment-complete`, {
        method: 'POST',
        headers,
        body: { paymentIntentId, videoId: upload.videoId },
      });
      check(complete.status === 200, `POST /api/payment-complete on web-a: ${describe(complete)}`);
      const original = await request(`${A.url}/media/videos/${upload.videoId}/original.mov`, {
        headers,
        hash: true,
      });
      check(original.status === 200, `the buyer's GET of the original on web-a: ${original.status}`);
      check(
        original.sha256 === upload.sourceSha,
        `the buyer's download's SHA-256 ${original.sha256} is not the source's`,
      );
      const ranged = await request(`${lb.url}/media/videos/${upload.videoId}/original.mov`, {
        headers: { ...headers, range: 'bytes=1000-1999' },
      });
      check(
        ranged.status === 206 && ranged.body.length === 1000,
        `a Range through nginx: ${ranged.status}, ${ranged.body.length} bytes`,
      );
      check(
        ranged.body.equals(readChunk(path.join(tmp, 'source.mov'), 1000, 1000)),
        'a Range through nginx: other bytes than the source',
      );
      say(
        `   purchase recorded; ${original.bytes} bytes downloaded on web-a, SHA-256 equal; a Range through nginx too`,
      );
    },
  );

  say(`\nDeployment test passed in ${seconds(started)} s`);
}

main().then(
  async () => {
    await cleanUp();
    process.exit(0);
  },
  async (error: unknown) => {
    console.error(
      `\nFAILED: ${error instanceof StepFailed ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    for (const proc of procs)
      console.error(`--- ${proc.name}: last lines of ${proc.logFile} ---\n${tail(proc.logFile, 15)}`);
    await cleanUp();
    process.exit(1);
  },
);
