// A real S3 store for the bench on this one machine: Ceph's RADOS Gateway (radosgw) over a one-node Ceph
// cluster (one monitor, one OSD keeping its objects in memory), all from Debian's packages:
//   apt-get install --no-install-recommends ceph-mon ceph-osd radosgw ceph-common
// Measurement only: nothing of the product uses it. No cephx (auth none), one replica, every daemon in the
// foreground as a tracked process group of its own, its folder under the bench's temporary directory.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runBounded, spawnTracked } from './procs.mjs';
import { freePort, sleep } from './util.mjs';

const BINARIES = ['ceph-mon', 'ceph-osd', 'radosgw', 'radosgw-admin', 'monmaptool', 'ceph-authtool', 'ceph'];
const ACCESS_KEY = 'PICKREELBENCH';
const SECRET_KEY = 'pickreel-bench-secret';

const which = (name) =>
  (process.env.PATH ?? '')
    .split(':')
    .map((dir) => path.join(dir, name))
    .find((file) => existsSync(file));

/** Null when Ceph's daemons are installed, else what to install. */
export function radosGatewayMissing() {
  const missing = BINARIES.filter((name) => !which(name));
  return missing.length
    ? `needs Ceph (apt-get install --no-install-recommends ceph-mon ceph-osd radosgw ceph-common): ${missing.join(', ')} not found`
    : null;
}

async function must(command, args, what) {
  const result = await runBounded(command, args, { timeoutMs: 60_000 });
  if (result.code !== 0)
    throw new Error(`${what} failed (${result.code}): ${result.stderr || result.stdout}`);
  return result.stdout;
}

/**
 * Starts the cluster and the gateway in `dir`; resolves once a user exists and the gateway answers.
 * `memoryBytes` is the OSD's in-memory device (every object the bench writes, tails included).
 */
export async function startRadosGateway(dir, { memoryBytes = 8 * 1024 ** 3 } = {}) {
  const missing = radosGatewayMissing();
  if (missing) throw new Error(missing);
  mkdirSync(path.join(dir, 'run'), { recursive: true });
  const [monPort, rgwPort] = [await freePort(), await freePort()];
  const fsid = crypto.randomUUID();
  const conf = path.join(dir, 'ceph.conf');
  writeFileSync(
    conf,
    `[global]
fsid = ${fsid}
mon host = v1:127.0.0.1:${monPort}
auth cluster required = none
auth service required = none
auth client required = none
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
mon allow pool size one = true
mon warn on pool no redundancy = false
osd crush chooseleaf type = 0
ms bind ipv6 = false
run dir = ${dir}/run
log file = ${dir}/$name.log
admin socket = ${dir}/run/$name.asok
mon data = ${dir}/mon-$id
osd data = ${dir}/osd-$id
osd objectstore = memstore
osd class update on start = false
osd crush update on start = false
memstore device bytes = ${memoryBytes}
[client.rgw.bench]
rgw frontends = beast endpoint=127.0.0.1:${rgwPort}
rgw data = ${dir}/rgw
`,
  );
  const c = ['-c', conf];
  const procs = [];
  const stop = async () => {
    for (const proc of procs.reverse()) await proc.stop({ graceMs: 5000 });
  };
  try {
    await must(
      'monmaptool',
      ['--create', '--add', 'bench', `v1:127.0.0.1:${monPort}`, '--fsid', fsid, path.join(dir, 'monmap')],
      'monmaptool',
    );
    await must(
      'ceph-authtool',
      [
        '--create-keyring',
        path.join(dir, 'mon.keyring'),
        '--gen-key',
        '-n',
        'mon.',
        '--cap',
        'mon',
        'allow *',
      ],
      'ceph-authtool',
    );
    mkdirSync(path.join(dir, 'mon-bench'));
    await must(
      'ceph-mon',
      [
        '--mkfs',
        '-i',
        'bench',
        '--monmap',
        path.join(dir, 'monmap'),
        '--keyring',
        path.join(dir, 'mon.keyring'),
        ...c,
      ],
      'ceph-mon --mkfs',
    );
    procs.push(spawnTracked('ceph-mon', ['-f', '-i', 'bench', ...c], { stdio: 'ignore' }));
    // The OSD's uuid given to both, as Ceph's manual deployment does. (The crush entry is made here, so the OSD
    // does not update it at start: that command of its could go out before it knew the cluster's fsid, the
    // monitor refused it ('wrong fsid'), the OSD stopped and the gateway never answered.)
    const osdUuid = crypto.randomUUID();
    const osdId = (
      await must('ceph', [...c, '--connect-timeout', '30', 'osd', 'create', osdUuid], 'ceph osd create')
    ).trim();
    mkdirSync(path.join(dir, `osd-${osdId}`));
    await must('ceph-osd', ['-i', osdId, '--mkfs', '--osd-uuid', osdUuid, ...c], 'ceph-osd --mkfs');
    await must(
      'ceph',
      [...c, 'osd', 'crush', 'add', `osd.${osdId}`, '1.0', 'root=default', 'host=localhost'],
      'ceph osd crush add',
    );
    procs.push(spawnTracked('ceph-osd', ['-f', '-i', osdId, ...c], { stdio: 'ignore' }));
    procs.push(spawnTracked('radosgw', ['-f', '-n', 'client.rgw.bench', ...c], { stdio: 'ignore' }));
    const endpoint = `http://127.0.0.1:${rgwPort}`;
    for (let i = 0; ; i++) {
      const up = await fetch(endpoint).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (i === 600) throw new Error(`radosgw did not answer on ${endpoint} (logs in ${dir})`);
      await sleep(100);
    }
    await must(
      'radosgw-admin',
      [
        ...c,
        'user',
        'create',
        '--uid',
        'bench',
        '--display-name',
        'bench',
        '--access-key',
        ACCESS_KEY,
        '--secret',
        SECRET_KEY,
      ],
      'radosgw-admin user create',
    );
    return {
      name: 'Ceph RADOS Gateway (one-node cluster, in-memory OSD)',
      endpoint,
      accessKeyId: ACCESS_KEY,
      secretAccessKey: SECRET_KEY,
      pids: procs.map((p) => p.pid),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
