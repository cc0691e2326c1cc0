// nginx as the reference: the Debian package's binary with a generated config in a temp dir (pid, logs and
// temp paths there), Debian's worker_processes auto, access_log off, listening on 127.0.0.1 only.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { waitFor200 } from './http.mjs';
import { runBounded, spawnTracked } from './procs.mjs';
import { freePort, tempDir } from './util.mjs';

/** NGINX_PATH when set (only it: a wrong path means no nginx), else Debian's place, else PATH. */
export function findNginx() {
  if (process.env.NGINX_PATH) return existsSync(process.env.NGINX_PATH) ? process.env.NGINX_PATH : null;
  const candidates = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'];
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir) candidates.push(path.join(dir, 'nginx'));
  return candidates.find((c) => c && existsSync(c)) ?? null;
}

export async function nginxVersion(binary) {
  const result = await runBounded(binary, ['-v'], { timeoutMs: 5000 });
  return (result.stderr || result.stdout).trim().replace(/^nginx version:\s*/, '');
}

/**
 * Serves `files` ({ '/url/path': Buffer }) with `contentType`. Resolves { url, port, pid, stop, confPath }.
 */
export async function startNginx({ binary = findNginx(), files, contentType = 'application/json' }) {
  if (!binary) throw new Error('nginx not found');
  const dir = tempDir('pickreel-bench-nginx-');
  chmodSync(dir, 0o755); // workers run as an unprivileged user when the bench runs as root
  const www = path.join(dir, 'www');
  for (const [urlPath, bytes] of Object.entries(files)) {
    const file = path.join(www, urlPath);
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
    writeFileSync(file, bytes, { mode: 0o644 });
  }
  const port = await freePort();
  const t = (name) => path.join(dir, name);
  // Debian's nginx.conf, minus what does not apply (includes, gzip of a 300-byte JSON, virtual hosts).
  const conf = `
worker_processes auto;
daemon off;
pid ${t('nginx.pid')};
error_log ${t('error.log')} warn;
events { worker_connections 768; }
http {
  sendfile on;
  tcp_nopush on;
  types_hash_max_size 2048;
  types { }
  default_type "${contentType}";
  access_log off;
  client_body_temp_path ${t('client_body')};
  proxy_temp_path ${t('proxy')};
  fastcgi_temp_path ${t('fastcgi')};
  uwsgi_temp_path ${t('uwsgi')};
  scgi_temp_path ${t('scgi')};
  server {
    listen 127.0.0.1:${port};
    root ${www};
  }
}
`;
  const confPath = t('nginx.conf');
  writeFileSync(confPath, conf);
  // -e: without it nginx first tries to open /var/log/nginx/error.log.
  const proc = spawnTracked(binary, ['-p', dir, '-e', t('error.log'), '-c', confPath], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.child.stderr.on('data', (d) => (stderr += d));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor200(url + Object.keys(files)[0], { deadlineMs: 10_000, exited: proc.exited });
  } catch (error) {
    await proc.stop();
    throw new Error(`${error.message}\n${stderr}`, { cause: error });
  }
  return { url, port, pid: proc.pid, confPath, stop: () => proc.stop({ signal: 'SIGQUIT', graceMs: 5000 }) };
}
