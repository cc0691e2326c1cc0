// The reference for the upload and streaming rows: nginx taking the same file by WebDAV PUT and serving it,
// and curl reading a whole range from either server.
import { execFileSync } from 'node:child_process';
import { createReadStream, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runBounded, spawnTracked } from '../../lib/procs.mjs';
import { send } from '../../lib/upload.mjs';
import { freePort, sleep, tempDir } from '../../lib/util.mjs';

/** nginx with the WebDAV module accepting PUTs under /dav/ and serving what it got (Debian's nginx-light has it). */
export async function startDavNginx(binary) {
  const dir = tempDir('pickreel-bench-dav-');
  execFileSync('chmod', ['755', dir]);
  const port = await freePort();
  const t = (name) => path.join(dir, name);
  const conf = `
worker_processes auto;
daemon off;
pid ${t('nginx.pid')};
error_log ${t('error.log')} warn;
events { worker_connections 768; }
http {
  sendfile on;
  tcp_nopush on;
  types { video/quicktime mov; }
  access_log off;
  client_body_temp_path ${t('www/.tmp')};
  proxy_temp_path ${t('proxy')};
  fastcgi_temp_path ${t('fastcgi')};
  uwsgi_temp_path ${t('uwsgi')};
  scgi_temp_path ${t('scgi')};
  server {
    listen 127.0.0.1:${port};
    root ${t('www')};
    location / { dav_methods PUT; create_full_put_path on; client_max_body_size 0; dav_access user:rw all:r; }
  }
}
`;
  execFileSync('mkdir', ['-p', t('www/.tmp')]);
  execFileSync('chmod', ['-R', '777', t('www')]);
  const confPath = t('nginx.conf');
  writeFileSync(confPath, conf);
  const proc = spawnTracked(binary, ['-p', dir, '-e', t('error.log'), '-c', confPath], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  await sleep(200);
  return {
    url,
    file: (name) => t(`www/${name}`),
    stop: () => proc.stop({ signal: 'SIGQUIT', graceMs: 5000 }),
  };
}

export async function putToNginx(url, file) {
  const size = statSync(file).size;
  const started = performance.now();
  const res = await send(`${url}/bench.mov`, {
    method: 'PUT',
    headers: { 'content-length': String(size), 'content-type': 'application/octet-stream' },
    body: createReadStream(file, { highWaterMark: 1024 * 1024 }),
  });
  if (res.status !== 201 && res.status !== 204)
    throw new Error(`nginx PUT answered ${res.status}: ${res.body}`);
  return { ms: performance.now() - started, size };
}

/** curl reads the whole range as fast as it can; its own figure (bytes/s) is used for both servers. */
export async function curlRange(url, headers = {}) {
  const args = [
    '-s',
    '-o',
    '/dev/null',
    '-H',
    'Range: bytes=0-',
    '-w',
    '%{http_code} %{size_download} %{speed_download}',
  ];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  const result = await runBounded('curl', [...args, url], { timeoutMs: 300_000 });
  const [status, size, speed] = result.stdout.trim().split(' ').map(Number);
  if (status !== 206) throw new Error(`range GET ${url} answered ${status}`);
  return { bytes: size, bytesPerSecond: speed };
}
