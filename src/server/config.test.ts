import { createHash, generateKeyPairSync } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, proxyTrust } from './config.js';

const tempDir = () => mkdtempSync(path.join(os.tmpdir(), 'pickreel-config-'));

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig({ DATA_DIR: tempDir(), ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  it('runs on embedded defaults with no settings', () => {
    const dir = tempDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config).toMatchObject({
      port: 5000,
      databaseUrl: undefined,
      admin: undefined,
      stripe: undefined,
      supportPhone: '+1 (555) 010-0199',
    });
    // No SESSION_SECRET: a random one is kept under DATA_DIR so restarts keep people signed in.
    expect(config.sessionSecret).toBe(readFileSync(path.join(dir, 'session-secret'), 'utf8'));
    expect(loadConfig({ DATA_DIR: dir }).sessionSecret).toBe(config.sessionSecret);
  });

  it('ROLE: all by default; web and worker only with a PostgreSQL server', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).role).toBe('all');
    expect(problems({ ROLE: 'both' })).toEqual(['ROLE: must be web, worker or all']);
    // The embedded database is one process's: a web or worker role without DATABASE_URL says what to use.
    for (const role of ['web', 'worker']) {
      const found = problems({ ROLE: role });
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(
        new RegExp(`^ROLE: ${role} needs DATABASE_URL: the embedded database belongs to one process`),
      );
    }
    for (const role of ['web', 'worker', 'all'] as const) {
      expect(
        loadConfig({ DATA_DIR: tempDir(), ROLE: role, DATABASE_URL: 'postgres://db.internal/pickreel' }).role,
      ).toBe(role);
    }
  });
  it('names each bad setting', () => {
    expect(problems({ PORT: 'eighty' })).toEqual(['PORT: must be a number']);
    expect(problems({ PORT: '70000' })[0]).toMatch(/^PORT:/);
    expect(problems({ DATABASE_URL: 'mysql://x' })).toEqual([
      'DATABASE_URL: must be a postgres:// or postgresql:// URL',
    ]);
    expect(problems({ SESSION_SECRET: 'short' })).toEqual([
      'SESSION_SECRET: must be at least 32 characters long',
    ]);
    expect(problems({ ADMIN_USERNAME: 'boss' })).toEqual([
      'ADMIN_PASSWORD: ADMIN_USERNAME and ADMIN_PASSWORD must be set together',
    ]);
    expect(problems({ STRIPE_SECRET_KEY: 'sk_test_abc' })).toEqual([
      'STRIPE_PUBLISHABLE_KEY: STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must be set together',
    ]);
    expect(problems({ STRIPE_PUBLISHABLE_KEY: 'nope', STRIPE_SECRET_KEY: 'sk_test_abc' })[0]).toMatch(
      /^STRIPE_PUBLISHABLE_KEY: must start with pk_test_/,
    );
    expect(problems({ ADMIN_USERNAME: 'boss', ADMIN_PASSWORD: '123' })).toEqual([
      'ADMIN_PASSWORD: must be at least 6 characters',
    ]);
    expect(problems({ SEED_DEMO: 'yes' })).toEqual(['SEED_DEMO: must be true or false']);
  });

  it('reads the mail settings: the outbox without SMTP_URL, a bad URL or sender stops start-up', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).mail).toEqual({
      smtpUrl: undefined,
      from: 'PickReel <no-reply@localhost>',
    });
    const set = loadConfig({
      DATA_DIR: tempDir(),
      PUBLIC_URL: 'https://pickreel.example/',
      SMTP_URL: 'smtps://user:p%40ss@mail.example.com:465',
      MAIL_FROM: 'Picks <picks@example.com>',
    });
    expect(set.mail).toEqual({
      smtpUrl: 'smtps://user:p%40ss@mail.example.com:465',
      from: 'Picks <picks@example.com>',
    });
    expect(set.publicUrl).toBe('https://pickreel.example');
    // Mail's links never follow a request's Host: a real SMTP server needs the site's address.
    expect(problems({ SMTP_URL: 'smtp://mail.example.com' })[0]).toMatch(
      /^PUBLIC_URL: is needed with SMTP_URL/,
    );
    expect(problems({ PUBLIC_URL: 'ftp://pickreel.example' })[0]).toMatch(/^PUBLIC_URL: must be/);
    for (const bad of ['mail.example.com:587', 'http://mail.example.com', 'smtp://'])
      expect(problems({ SMTP_URL: bad, PUBLIC_URL: 'https://pickreel.example' })[0]).toMatch(
        /^SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/,
      );
    // A password in a bad URL is never echoed back.
    expect(problems({ SMTP_URL: 'smtp//user:hunter2@x' }).join()).not.toContain('hunter2');
    expect(problems({ MAIL_FROM: 'PickReel <not an address>' })[0]).toMatch(/^MAIL_FROM:/);
    expect(problems({ MAIL_FROM: 'Bcc: x@example.com\r\n<a@example.com>' })[0]).toMatch(/^MAIL_FROM:/);
  });

  it('reads SEED_DEMO as a yes or no, off by default', () => {
    const dir = tempDir();
    expect(loadConfig({ DATA_DIR: dir }).seedDemo).toBe(false);
    expect(loadConfig({ DATA_DIR: dir, SEED_DEMO: '' }).seedDemo).toBe(false);
    expect(loadConfig({ DATA_DIR: dir, SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(loadConfig({ DATA_DIR: dir, SEED_DEMO: '1' }).seedDemo).toBe(true);
    expect(loadConfig({ DATA_DIR: dir, SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });

  it('reads the admin and Stripe settings as pairs', () => {
    const config = loadConfig({
      DATA_DIR: tempDir(),
      ADMIN_USERNAME: 'boss',
      ADMIN_PASSWORD: 'boss-password',
      STRIPE_SECRET_KEY: 'sk_test_123',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_123',
      PORT: '8080',
    });
    expect(config.admin).toEqual({ username: 'boss', password: 'boss-password' });
    expect(config.stripe).toEqual({
      secretKey: 'sk_test_123',
      publishableKey: 'pk_test_123',
      webhookSecret: undefined,
    });
    expect(config.port).toBe(8080);
  });

  // Believing every X-Forwarded-For hop would let a client choose its own address.
  describe('TRUST_PROXY', () => {
    const trustProxy = (value: string) => loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: value }).trustProxy;

    it('reads false, true (one hop), a hop count and an address list', () => {
      expect(loadConfig({ DATA_DIR: tempDir() }).trustProxy).toBe(false);
      expect(trustProxy('false')).toBe(false);
      expect(trustProxy('0')).toBe(false);
      expect(trustProxy('true')).toEqual({ hops: 1 });
      expect(trustProxy('2')).toEqual({ hops: 2 });
      expect(trustProxy('loopback, 10.0.0.0/8,fd00::1')).toEqual({
        addresses: ['loopback', '10.0.0.0/8', 'fd00::1'],
      });
    });

    it('stops start-up on anything else, saying what it accepts', () => {
      for (const bad of ['yes', 'proxy.example', '10.0.0.1/33', '10.0.0.1,', '1.5', '-1', '11']) {
        const found = problems({ TRUST_PROXY: bad });
        expect(found, bad).toHaveLength(1);
        expect(found[0]).toMatch(
          /^TRUST_PROXY: must be false, true \(one proxy\), a number of proxy hops, or a comma-separated list/,
        );
      }
    });

    it('trusts exactly the configured hops', () => {
      const oneHop = proxyTrust({ hops: 1 });
      expect(oneHop && [oneHop('203.0.113.1', 0), oneHop('203.0.113.1', 1)]).toEqual([true, false]);
      const twoHops = proxyTrust({ hops: 2 });
      expect(twoHops && [twoHops('203.0.113.1', 1), twoHops('203.0.113.1', 2)]).toEqual([true, false]);
      const listed = proxyTrust({ addresses: ['loopback', '10.0.0.0/8'] });
      expect(listed && [listed('127.0.0.1', 0), listed('10.1.2.3', 3), listed('192.0.2.1', 0)]).toEqual([
        true,
        true,
        false,
      ]);
      expect(proxyTrust(false)).toBe(false);
    });
  });

  it('keeps media on local disk unless S3_BUCKET is set, and reads the S3 settings', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).s3).toBeUndefined();
    expect(
      loadConfig({
        DATA_DIR: tempDir(),
        S3_BUCKET: 'pickreel-media',
        S3_ENDPOINT: 'https://s3.example.com',
        S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'true',
        S3_PUBLIC_URL: 'https://media.example.com/',
      }).s3,
    ).toEqual({
      bucket: 'pickreel-media',
      endpoint: 'https://s3.example.com',
      region: 'us-east-1',
      credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret' },
      forcePathStyle: true,
      publicUrl: 'https://media.example.com',
    });
    // AWS itself, credentials from the SDK's own chain (an instance role).
    expect(
      loadConfig({ DATA_DIR: tempDir(), S3_BUCKET: 'media.pickreel', S3_REGION: 'eu-west-1' }).s3,
    ).toEqual({
      bucket: 'media.pickreel',
      endpoint: undefined,
      region: 'eu-west-1',
      credentials: undefined,
      forcePathStyle: false,
      publicUrl: undefined,
    });
  });

  it('names each bad S3 setting', () => {
    expect(problems({ S3_BUCKET: 'My_Bucket' })).toEqual([
      'S3_BUCKET: must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens',
    ]);
    expect(problems({ S3_BUCKET: 'media', S3_ENDPOINT: 's3.example.com' })).toEqual([
      'S3_ENDPOINT: must be an http:// or https:// URL, e.g. https://s3.example.com',
    ]);
    expect(problems({ S3_BUCKET: 'media', S3_PUBLIC_URL: 'http://cdn.example.com' })).toEqual([
      'S3_PUBLIC_URL: must be an https:// URL, e.g. https://media.example.com',
    ]);
    expect(problems({ S3_BUCKET: 'media', S3_FORCE_PATH_STYLE: 'yes' })).toEqual([
      'S3_FORCE_PATH_STYLE: must be true or false',
    ]);
    expect(problems({ S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'AKIAEXAMPLE' })).toEqual([
      'S3_SECRET_ACCESS_KEY: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
    ]);
    // Settings of a bucket without the bucket: a forgotten S3_BUCKET would silently keep media on disk.
    expect(
      problems({ S3_ENDPOINT: 'https://s3.example.com', S3_PUBLIC_URL: 'https://cdn.example.com' }),
    ).toEqual(['S3_ENDPOINT: is set but S3_BUCKET is not', 'S3_PUBLIC_URL: is set but S3_BUCKET is not']);
  });

  it('turns the market on with ODDS_API_KEY, following the major US leagues every minute by default', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).market).toBeUndefined();
    const config = loadConfig({ DATA_DIR: tempDir(), ODDS_API_KEY: 'k' });
    expect(config.market).toMatchObject({
      apiKey: 'k',
      url: 'https://api.the-odds-api.com',
      refreshSeconds: 60,
      leagues: ['NFL', 'NBA', 'MLB', 'NHL'],
      scores: { source: 'provider' },
    });
    const own = loadConfig({
      DATA_DIR: tempDir(),
      ODDS_API_KEY: 'k',
      ODDS_API_URL: 'http://127.0.0.1:9',
      MARKET_LEAGUES: 'nba, Soccer=soccer_epl',
      MARKET_REFRESH_SECONDS: '5',
      MARKET_SCORES: 'espn',
    }).market!;
    expect(own.leagues).toEqual(['NBA', 'Soccer']);
    expect(own.sportKeys.Soccer).toBe('soccer_epl');
    expect(own.refreshSeconds).toBe(5);
    expect(own.scores).toEqual({ source: 'espn', url: 'https://site.api.espn.com' });
  });

  it('names each bad market setting', () => {
    expect(problems({ MARKET_REFRESH_SECONDS: '4' })).toEqual([
      'MARKET_REFRESH_SECONDS: must be at least 5 seconds',
    ]);
    expect(problems({ MARKET_LEAGUES: 'NBA,Cricket' })[0]).toMatch(
      /^MARKET_LEAGUES: Cricket is not one of our leagues/,
    );
    expect(problems({ MARKET_LEAGUES: 'Golf' })).toEqual([
      'MARKET_LEAGUES: Golf needs its sport key: Golf=<sport key>',
    ]);
    expect(problems({ MARKET_LEAGUES: 'Golf=Golf Masters' })[0]).toMatch(/is not a sport key/);
    expect(problems({ ODDS_API_URL: 'ftp://odds' })).toEqual([
      'ODDS_API_URL: must be an http:// or https:// URL',
    ]);
    expect(problems({ MARKET_SCORES: 'yahoo' })).toEqual(['MARKET_SCORES: must be provider or espn']);
  });

  it('lets any NODE_ENV through: it is not a setting of the server', () => {
    for (const value of ['production', 'development', 'test', 'staging', '']) {
      expect(problems({ NODE_ENV: value }), value).toEqual([]);
    }
  });

  // A wrong path to a media tool stops start-up, not the first upload's job.
  describe('FFMPEG_PATH and FFPROBE_PATH', () => {
    function fakeTool(dir: string, name: string, mode = 0o755): string {
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, name);
      writeFileSync(file, '#!/bin/sh\n');
      chmodSync(file, mode);
      return file;
    }

    it('takes the given paths when they are executable files', () => {
      const dir = tempDir();
      const ffmpeg = fakeTool(dir, 'my-ffmpeg');
      const ffprobe = fakeTool(dir, 'my-ffprobe');
      const config = loadConfig({ DATA_DIR: tempDir(), FFMPEG_PATH: ffmpeg, FFPROBE_PATH: ffprobe });
      expect(config.mediaTools).toEqual({ ffmpeg, ffprobe });
    });

    it('names the setting whose path is missing, a folder or not executable, with the other problems', () => {
      const dir = tempDir();
      const missing = path.join(dir, 'nothing-here');
      expect(problems({ FFMPEG_PATH: missing })).toEqual([
        `FFMPEG_PATH: ${missing} is not an executable file`,
      ]);
      expect(problems({ FFPROBE_PATH: dir })).toEqual([`FFPROBE_PATH: ${dir} is not an executable file`]);
      const plain = fakeTool(dir, 'plain-file', 0o644);
      expect(problems({ PORT: 'eighty', FFMPEG_PATH: plain, FFPROBE_PATH: missing })).toEqual([
        'PORT: must be a number',
        `FFMPEG_PATH: ${plain} is not an executable file`,
        `FFPROBE_PATH: ${missing} is not an executable file`,
      ]);
    });

    it('finds the system tools on PATH first, else the binaries shipped in npm', () => {
      const bin = path.join(tempDir(), 'bin');
      const ffmpeg = fakeTool(bin, 'ffmpeg');
      const onPath = loadConfig({ DATA_DIR: tempDir(), PATH: `/nonexistent${path.delimiter}${bin}` });
      expect(onPath.mediaTools.ffmpeg).toBe(ffmpeg);
      // No ffprobe in that folder: the npm package's.
      expect(onPath.mediaTools.ffprobe).toContain(path.join('@ffprobe-installer', ''));
      const fromNpm = loadConfig({ DATA_DIR: tempDir(), PATH: '' }).mediaTools;
      expect(fromNpm.ffmpeg).toContain(path.join('@ffmpeg-installer', ''));
      expect(fromNpm.ffprobe).toContain(path.join('@ffprobe-installer', ''));
    });
  });

  describe('PICK_LOG_WITNESSES', () => {
    /** A witness's verifier key (cosignature/v1, type 0x04), written from its definition. */
    function witnessKey(name: string, type = 0x04): string {
      const raw = Buffer.from(
        generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!,
        'base64url',
      );
      const id = createHash('sha256')
        .update(Buffer.concat([Buffer.from(`${name}\n`), Buffer.from([type]), raw]))
        .digest('hex')
        .slice(0, 8);
      return `${name}+${id}+${Buffer.concat([Buffer.from([type]), raw]).toString('base64')}`;
    }

    it('reads `<key>=<URL>` pairs, comma-separated; none by default', () => {
      expect(loadConfig({ DATA_DIR: tempDir() }).pickLog.witnesses).toEqual([]);
      const [a, b] = [witnessKey('w1.example/pickreel'), witnessKey('w2.example')];
      const { witnesses } = loadConfig({
        DATA_DIR: tempDir(),
        PICK_LOG_WITNESSES: ` ${a}=https://w1.example/witness/ , ${b}=http://127.0.0.1:7380`,
      }).pickLog;
      expect(witnesses.map(({ verifierKey, url }) => ({ verifierKey, url }))).toEqual([
        { verifierKey: a, url: 'https://w1.example/witness' },
        { verifierKey: b, url: 'http://127.0.0.1:7380' },
      ]);
      expect(witnesses[0]!.key.name).toBe('w1.example/pickreel');
    });

    it('says which pair is wrong and why', () => {
      const key = witnessKey('w1.example');
      const logKey = witnessKey('log.example/pick-log', 0x01);
      const badId = key.replace(/\+[0-9a-f]{8}\+/, '+00000000+');
      const cases: [string, RegExp][] = [
        [key, /is not <witness verifier key>=<URL>/],
        [`${key}=ftp://w1.example`, /is not <witness verifier key>=<URL>/],
        [`${logKey}=https://w1.example`, /not a cosignature\/v1 .*0x04.*the key the witness printed/],
        [`${badId}=https://w1.example`, /key id does not match/],
        [`nonsense=https://w1.example`, /not of the form <name>\+<key id>\+<key>/],
        [`${key}=https://w1.example/?x=1`, /no user, query or fragment/],
        [`${key}=https://a.example,${key}=https://b.example`, /is named twice/],
      ];
      for (const [value, message] of cases) {
        const found = problems({ PICK_LOG_WITNESSES: value });
        expect(found, value).toHaveLength(1);
        expect(found[0], value).toMatch(/^PICK_LOG_WITNESSES: /);
        expect(found[0], value).toMatch(message);
      }
    });
  });
});
