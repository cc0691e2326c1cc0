// Stand-ins for the third-party hosts a page loads from (the bench is offline: nothing leaves 127.0.0.1).
// Link videos show YouTube's thumbnail (https://i.ytimg.com/vi/ID/hqdefault.jpg); without a stand-in each one
// is a failed request, a console error that costs Lighthouse's best-practices score nothing a visitor sees.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { runBounded } from './procs.mjs';
import { tempDir } from './util.mjs';

export const IMAGE_HOSTS = ['i.ytimg.com'];

/**
 * An HTTPS server on 127.0.0.1 answering every GET with `jpeg` (a self-signed certificate made by openssl:
 * Chromium is started with --ignore-certificate-errors for it). Resolves { port, stop }.
 */
export async function startImageStandIn(jpeg) {
  const dir = tempDir('pickreel-bench-tls-');
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  const made = await runBounded(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=stand-in',
    ],
    { timeoutMs: 30_000 },
  );
  if (made.code !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
  const body = readFileSync(jpeg);
  const server = https.createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
    res.writeHead(200, {
      'content-type': 'image/jpeg',
      'content-length': body.length,
      'cache-control': 'public, max-age=31536000',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    port: server.address().port,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Chromium flags sending IMAGE_HOSTS to the stand-in; every other name still resolves nowhere. */
export function standInFlags(port) {
  const maps = IMAGE_HOSTS.map((host) => `MAP ${host} 127.0.0.1:${port}`).join(', ');
  return [`--host-resolver-rules=${maps}, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1`, '--ignore-certificate-errors'];
}
