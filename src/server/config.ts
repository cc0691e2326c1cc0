// Every setting is read here, once, and parsed by one schema (docs/product-decisions.md 'Running it').
import { createECDH, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import proxyAddr from '@fastify/proxy-addr';
import { z } from 'zod';
import { DEFAULT_SUPPORT_PHONE, PASSWORD_MIN_LENGTH, USERNAME_MIN_LENGTH } from '../common/constants.js';
import { parseCosignerKeySync } from '../common/pick-log/cosignature.js';
import type { VerifierKey } from '../common/pick-log/note.js';
import { DEFAULT_MARKET_LEAGUES, ODDS_API_SPORT_KEYS } from '../common/market.js';
import { LEAGUES, type League } from '../common/schemas/picks.js';
import { ESPN_LEAGUE_PATHS } from './features/market/index.js';
import { locateMediaTool, mediaToolSetting, type MediaTools } from './media/ffmpeg.js';
import type { S3Settings } from './media/s3-storage.js';
import { parseSender, type MailSettings } from './mail/index.js';
import {
  DEFAULT_PUSH_SERVICE_HOSTS,
  parsePushServiceHosts,
  type PushServiceHosts,
} from './lib/push-hosts.js';

const DEFAULT_MAIL_FROM = 'PickReel <no-reply@localhost>';

function isSmtpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function isSender(value: string): boolean {
  try {
    parseSender(value);
    return true;
  } catch {
    return false;
  }
}

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);

/** A yes/no setting: true/false or 1/0, false when unset. */
const booleanSetting = () =>
  z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .default('false')
    .transform((value) => value === 'true' || value === '1');

const EnvSchema = z
  .object({
    PORT: z.preprocess(
      emptyAsUndefined,
      z.coerce
        .number({ error: 'must be a number' })
        .int('must be a whole number')
        .min(0)
        .max(65535)
        .default(5000),
    ),
    HOST: z.preprocess(emptyAsUndefined, z.string().default('0.0.0.0')),
    DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default('./data')),
    // What this instance does (docs/decisions/023): serve HTTP, run the background work, or both.
    ROLE: z.preprocess(
      emptyAsUndefined,
      z.enum(['web', 'worker', 'all'], { error: 'must be web, worker or all' }).default('all'),
    ),
    DATABASE_URL: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
        .optional(),
    ),
    SESSION_SECRET: z.preprocess(
      emptyAsUndefined,
      z.string().min(32, 'must be at least 32 characters long').optional(),
    ),
    ADMIN_USERNAME: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .trim()
        .min(USERNAME_MIN_LENGTH, `must be at least ${USERNAME_MIN_LENGTH} characters`)
        .optional(),
    ),
    ADMIN_PASSWORD: z.preprocess(
      emptyAsUndefined,
      z.string().min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`).optional(),
    ),
    SUPPORT_PHONE: z.preprocess(emptyAsUndefined, z.string().trim().min(3).default(DEFAULT_SUPPORT_PHONE)),
    STRIPE_SECRET_KEY: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(/^(sk|rk)_(test|live)_/, 'must start with sk_test_, sk_live_, rk_test_ or rk_live_')
        .optional(),
    ),
    STRIPE_PUBLISHABLE_KEY: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(/^pk_(test|live)_/, 'must start with pk_test_ or pk_live_')
        .optional(),
    ),
    STRIPE_WEBHOOK_SECRET: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(/^whsec_/, 'must start with whsec_')
        .optional(),
    ),
    // Demo content on a fresh machine in one step (demo/demo-on-start.ts).
    SEED_DEMO: z.preprocess(emptyAsUndefined, booleanSetting()),
    // Final scores fetched from a results feed on a schedule (docs/results-feed.md).
    RESULTS_FEED_URL: z.preprocess(
      emptyAsUndefined,
      z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
    ),
    RESULTS_FEED_INTERVAL_SECONDS: z.preprocess(
      emptyAsUndefined,
      z.coerce
        .number({ error: 'must be a number' })
        .int('must be a whole number of seconds')
        .min(30, 'must be at least 30 seconds')
        .default(300),
    ),
    // The sports-data market (docs/decisions/025): The Odds API v4, or a stand-in speaking it.
    ODDS_API_KEY: z.preprocess(emptyAsUndefined, z.string().trim().min(1).optional()),
    ODDS_API_URL: z.preprocess(
      emptyAsUndefined,
      z
        .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
        .default('https://api.the-odds-api.com'),
    ),
    MARKET_LEAGUES: z.preprocess(emptyAsUndefined, z.string().optional()),
    // Final scores from the market's provider, or free from ESPN's public scoreboard (docs/decisions/025).
    MARKET_SCORES: z.preprocess(
      emptyAsUndefined,
      z.enum(['provider', 'espn'], { error: 'must be provider or espn' }).default('provider'),
    ),
    ESPN_URL: z.preprocess(
      emptyAsUndefined,
      z
        .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
        .default('https://site.api.espn.com'),
    ),
    MARKET_REFRESH_SECONDS: z.preprocess(
      emptyAsUndefined,
      z.coerce
        .number({ error: 'must be a number' })
        .int('must be a whole number of seconds')
        .min(5, 'must be at least 5 seconds')
        .default(60),
    ),
    // The public pick log's name and key (docs/decisions/021).
    PICK_LOG_ORIGIN: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(
          /^[^\s+]+$/,
          'must have no spaces and no "+" (it is the log\'s key name), e.g. pickreel.example/pick-log',
        )
        .optional(),
    ),
    PICK_LOG_KEY_FILE: z.preprocess(emptyAsUndefined, z.string().optional()),
    PICK_LOG_NEW_KEY: z.preprocess(emptyAsUndefined, booleanSetting()),
    // Outside witnesses that cosign the log's checkpoints (docs/decisions/026): `<verifier key>=<URL>`, ...
    PICK_LOG_WITNESSES: z.preprocess(emptyAsUndefined, z.string().optional()),
    // Media in an S3-compatible bucket (docs/decisions/022); local disk when S3_BUCKET is unset.
    S3_BUCKET: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(
          /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
          'must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens',
        )
        .optional(),
    ),
    S3_ENDPOINT: z.preprocess(
      emptyAsUndefined,
      z
        .url({
          protocol: /^https?$/,
          error: 'must be an http:// or https:// URL, e.g. https://s3.example.com',
        })
        .optional(),
    ),
    S3_REGION: z.preprocess(emptyAsUndefined, z.string().trim().min(1).default('us-east-1')),
    S3_ACCESS_KEY_ID: z.preprocess(emptyAsUndefined, z.string().optional()),
    S3_SECRET_ACCESS_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
    S3_FORCE_PATH_STYLE: z.preprocess(emptyAsUndefined, booleanSetting()),
    // A CDN in front of the bucket: the browser's Content-Security-Policy lets media and pictures come
    // from https: origins only, so an http:// one could never be shown.
    S3_PUBLIC_URL: z.preprocess(
      emptyAsUndefined,
      z
        .url({ protocol: /^https$/, error: 'must be an https:// URL, e.g. https://media.example.com' })
        .transform((value) => value.replace(/\/+$/, ''))
        .optional(),
    ),
    LOG_LEVEL: z.preprocess(
      emptyAsUndefined,
      z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    ),
    // Mail (docs/decisions/036): without SMTP_URL every mail stays in the outbox for an admin to read.
    SMTP_URL: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .refine(isSmtpUrl, {
          message:
            'must be an smtp:// or smtps:// URL with a host, e.g. smtp://user:password@mail.example.com:587 (percent-encode an @ or : in the user or password)',
        })
        .optional(),
    ),
    // Links in mail point here, never at the Host a request named (a forged Host would mail its own links).
    PUBLIC_URL: z.preprocess(
      emptyAsUndefined,
      z
        .url({
          protocol: /^https?$/,
          error: "must be the site's http(s):// address, e.g. https://pickreel.example",
        })
        .transform((value) => new URL(value).origin)
        .optional(),
    ),
    MAIL_FROM: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .default(DEFAULT_MAIL_FROM)
        .refine(isSender, { message: 'must be an address or Name <address>, on one line' }),
    ),
    // Web Push (docs/decisions/038): the VAPID keys are made at first start and kept under DATA_DIR.
    VAPID_PUBLIC_KEY: z.preprocess(emptyAsUndefined, z.string().trim().optional()),
    VAPID_PRIVATE_KEY: z.preprocess(emptyAsUndefined, z.string().trim().optional()),
    VAPID_SUBJECT: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .trim()
        .refine((value) => /^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/.test(value), {
          message: 'must be a mailto: address or an https:// URL, e.g. mailto:admin@pickreel.example',
        })
        .optional(),
    ),
    PUSH_SERVICE_HOSTS: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .default(DEFAULT_PUSH_SERVICE_HOSTS)
        .transform((value, ctx) => {
          try {
            return parsePushServiceHosts(value);
          } catch (error) {
            ctx.addIssue({
              code: 'custom',
              message: `must be a comma-separated list of push service host names (*.example.com for any below it) or full origins: ${(error as Error).message}`,
            });
            return z.NEVER;
          }
        }),
    ),
    TRUST_PROXY: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .default('false')
        .transform((value, ctx) => {
          try {
            return parseTrustProxy(value);
          } catch (error) {
            ctx.addIssue({
              code: 'custom',
              message: `must be false, true (one proxy), a number of proxy hops, or a comma-separated list of proxy addresses or CIDR ranges (loopback, linklocal and uniquelocal allowed): ${error instanceof Error ? error.message : String(error)}`,
            });
            return z.NEVER;
          }
        }),
    ),
  })
  .superRefine((env, ctx) => {
    // The embedded database's data directory is one process's alone: a web instance and a worker cannot share it.
    if (env.ROLE !== 'all' && !env.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['ROLE'],
        message: `${env.ROLE} needs DATABASE_URL: the embedded database belongs to one process, which serves HTTP and runs the jobs (ROLE=all). To run web instances and workers apart, point them all at one PostgreSQL server with DATABASE_URL`,
      });
    }
    if (!env.S3_BUCKET) {
      for (const name of [
        'S3_ENDPOINT',
        'S3_ACCESS_KEY_ID',
        'S3_SECRET_ACCESS_KEY',
        'S3_PUBLIC_URL',
      ] as const) {
        if (env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is set but S3_BUCKET is not' });
      }
    }
    if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'],
        message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
      });
    }
    if (env.SMTP_URL && !env.PUBLIC_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_URL'],
        message:
          "is needed with SMTP_URL: the links in mail must point at the site's own address, e.g. https://pickreel.example",
      });
    }
    if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.VAPID_PUBLIC_KEY ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY'],
        message: 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together',
      });
    } else if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY) {
      const problem = vapidKeysProblem(env.VAPID_PUBLIC_KEY, env.VAPID_PRIVATE_KEY);
      if (problem) ctx.addIssue({ code: 'custom', path: ['VAPID_PRIVATE_KEY'], message: problem });
    }
    if (Boolean(env.ADMIN_USERNAME) !== Boolean(env.ADMIN_PASSWORD)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.ADMIN_USERNAME ? 'ADMIN_PASSWORD' : 'ADMIN_USERNAME'],
        message: 'ADMIN_USERNAME and ADMIN_PASSWORD must be set together',
      });
    }
    if (Boolean(env.STRIPE_SECRET_KEY) !== Boolean(env.STRIPE_PUBLISHABLE_KEY)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.STRIPE_SECRET_KEY ? 'STRIPE_PUBLISHABLE_KEY' : 'STRIPE_SECRET_KEY'],
        message: 'STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must be set together',
      });
    }
  });

/** What an instance does (ROLE, docs/decisions/023). */
export type Role = 'web' | 'worker' | 'all';

export interface Config {
  /** web: HTTP and enqueueing; worker: media jobs and the background work, /api/health only; all: both. */
  role: Role;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  sessionSecret: string;
  admin: { username: string; password: string } | undefined;
  supportPhone: string;
  stripe: { secretKey: string; publishableKey: string; webhookSecret: string | undefined } | undefined;
  logLevel: string;
  trustProxy: TrustProxy;
  /** Add the demo content at start when the catalog holds no videos but the demo's (SEED_DEMO). */
  seedDemo: boolean;
  /** The results feed fetched on a schedule (RESULTS_FEED_URL, RESULTS_FEED_INTERVAL_SECONDS); none when unset. */
  resultsFeed: { url: string; intervalSeconds: number } | undefined;
  /**
   * The market (ODDS_API_KEY, ODDS_API_URL, MARKET_LEAGUES, MARKET_REFRESH_SECONDS): none without a key. The
   * leagues it follows map to the provider's sport keys.
   */
  market: MarketSettings | undefined;
  /** How often the market is looked at: also the demo's stand-in's, when SEED_DEMO starts one. */
  marketRefreshSeconds: number;
  /** MARKET_LEAGUES, whether or not a key is set (the demo's stand-in follows them too). */
  marketLeagues: MarketLeagues;
  /** ffmpeg and ffprobe, found and checked at start (FFMPEG_PATH, FFPROBE_PATH). */
  mediaTools: MediaTools;
  /** The public pick log (PICK_LOG_ORIGIN, PICK_LOG_KEY_FILE, PICK_LOG_NEW_KEY, PICK_LOG_WITNESSES). */
  pickLog: {
    origin: string | undefined;
    keyFile: string | undefined;
    acceptNewKey: boolean;
    witnesses: WitnessSetting[];
  };
  /** Media in an S3-compatible bucket (S3_*); undefined keeps it under DATA_DIR/media. */
  s3: S3Settings | undefined;
  /** Outgoing mail (SMTP_URL, MAIL_FROM): without an SMTP server, mail stays in the outbox. */
  mail: MailSettings;
  /** PUBLIC_URL's origin: where links in mail point. Unset, the origin a request came in on. */
  publicUrl: string | undefined;
  /** Web Push: the VAPID keys and subject, and the push services an endpoint may point at. */
  push: { vapid: VapidKeys & { subject: string }; serviceHosts: PushServiceHosts };
}

/** A P-256 key pair, base64url: the public key an uncompressed point (65 bytes), the private 32 bytes. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * Which X-Forwarded-* hops to believe: none, the nearest N hops, or the hops whose address is in
 * a list. Believing every hop let a client choose its own address (`X-Forwarded-For: 203.0.113.9, …`)
 * and so escape every per-address limit.
 */
export type TrustProxy = false | { hops: number } | { addresses: string[] };

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function parseTrustProxy(raw: string): TrustProxy {
  const value = raw.trim();
  if (/^false$/i.test(value) || value === '0') return false;
  // Kept from when this was a yes/no: the browser tests and the bench run behind exactly one proxy.
  if (/^true$/i.test(value)) return { hops: 1 };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 10) throw new Error(`${hops} hops is more proxies than any deployment has`);
    return { hops };
  }
  const addresses = value.split(',').map((entry) => entry.trim());
  for (const entry of addresses) {
    // proxy-addr also reads shorthands such as '1.5' (1.0.0.5): only full addresses are taken here.
    if (!PROXY_NAMES.has(entry) && isIP(entry.split('/')[0]!) === 0)
      throw new Error(`${entry || '(empty)'} is not an IP address`);
  }
  proxyAddr.compile(addresses); // throws on a bad range ('10.0.0.1/33')
  return { addresses };
}

/**
 * The trust function Fastify and the connection limits apply: `(address, hop)` is believed when it is one of
 * the nearest `hops` hops, or when its address is in the list. Fastify's own handling of a bare number
 * trusts no hop at all, so a hop count is passed as this function.
 */
export function proxyTrust(setting: TrustProxy): false | ((address: string, hop: number) => boolean) {
  if (setting === false) return false;
  if ('hops' in setting) {
    const { hops } = setting;
    return (_address, hop) => hop < hops;
  }
  return proxyAddr.compile(setting.addresses);
}

export interface MarketLeagues {
  leagues: League[];
  sportKeys: Partial<Record<League, string>>;
}

export interface MarketSettings extends MarketLeagues {
  apiKey: string;
  url: string;
  refreshSeconds: number;
  /** Where final scores come from: the provider, or ESPN's public scoreboard at this base URL. */
  scores: { source: 'provider' } | { source: 'espn'; url: string };
}

/**
 * MARKET_LEAGUES: our leagues, comma-separated, each followed under The Odds API's sport key for it, or
 * under the one given after `=` ('NBA,Soccer=soccer_epl').
 */
function parseMarketLeagues(raw: string | undefined): MarketLeagues {
  if (raw === undefined)
    return { leagues: [...DEFAULT_MARKET_LEAGUES], sportKeys: { ...ODDS_API_SPORT_KEYS } };
  const leagues: League[] = [];
  const sportKeys: Partial<Record<League, string>> = { ...ODDS_API_SPORT_KEYS };
  for (const item of raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [name = '', key] = item.split('=').map((part) => part.trim());
    const league = LEAGUES.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
    if (!league) throw new Error(`${name} is not one of our leagues (${LEAGUES.join(', ')})`);
    if (key !== undefined) {
      if (!/^[a-z0-9_]+$/.test(key)) throw new Error(`${key} is not a sport key (e.g. basketball_nba)`);
      sportKeys[league] = key;
    }
    if (!sportKeys[league]) throw new Error(`${league} needs its sport key: ${league}=<sport key>`);
    if (!leagues.includes(league)) leagues.push(league);
  }
  if (!leagues.length) throw new Error('names no league');
  return { leagues, sportKeys };
}

/** A witness the log sends its checkpoints to: its verifier key (signature type 0x04) and its URL. */
export interface WitnessSetting {
  verifierKey: string;
  key: VerifierKey;
  /** The submission prefix: add-checkpoint is POSTed to `<url>/add-checkpoint`. */
  url: string;
}

const sha256Sync = (bytes: Uint8Array) => new Uint8Array(createHash('sha256').update(bytes).digest());

/**
 * PICK_LOG_WITNESSES: `<witness verifier key>=<URL>`, comma-separated. A key holds no '=' before its URL
 * (base64 of 33 bytes has no padding), so the first '=http' splits the two.
 */
export function parseWitnesses(raw: string | undefined): WitnessSetting[] {
  const witnesses: WitnessSetting[] = [];
  for (const item of (raw ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const at = item.search(/=https?:\/\//);
    if (at < 0)
      throw new Error(
        `${item} is not <witness verifier key>=<URL> (its URL starting with http:// or https://)`,
      );
    const verifierKey = item.slice(0, at);
    let key: VerifierKey;
    try {
      key = parseCosignerKeySync(verifierKey, sha256Sync);
    } catch (error) {
      throw new Error(
        `${verifierKey}: ${(error as Error).message}; give the key the witness printed as its first line`,
        { cause: error },
      );
    }
    let url: URL;
    try {
      url = new URL(item.slice(at + 1));
    } catch {
      throw new Error(`${item.slice(at + 1)} is not a URL`);
    }
    if (url.username || url.password || url.search || url.hash)
      throw new Error(
        `${url.href}: a witness's URL is its submission prefix, with no user, query or fragment`,
      );
    if (witnesses.some((witness) => witness.verifierKey === verifierKey))
      throw new Error(`${verifierKey} is named twice`);
    witnesses.push({ verifierKey, key, url: url.href.replace(/\/+$/, '') });
  }
  return witnesses;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid settings:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the environment; throws ConfigError naming every bad setting. NODE_ENV is not a setting: nothing in
 * the server behaves differently by it (Vite reads it when building), so any value is let through.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.') || 'settings'}: ${issue.message}`);
  // FFMPEG_PATH, FFPROBE_PATH (or the default lookup) are checked now rather than at the first upload's
  // job, so a wrong path stops start-up.
  const locate = (tool: keyof MediaTools): string => {
    const setting = mediaToolSetting(tool);
    const located = locateMediaTool(tool, env[setting] || undefined, env.PATH);
    if ('path' in located) return located.path;
    problems.push(`${setting}: ${located.problem}`);
    return '';
  };
  const mediaTools = { ffmpeg: locate('ffmpeg'), ffprobe: locate('ffprobe') };
  let marketLeagues: MarketLeagues | undefined;
  try {
    marketLeagues = parseMarketLeagues(parsed.success ? parsed.data.MARKET_LEAGUES : undefined);
  } catch (error) {
    problems.push(`MARKET_LEAGUES: ${(error as Error).message}`);
  }
  let witnesses: WitnessSetting[] = [];
  try {
    witnesses = parseWitnesses(parsed.success ? parsed.data.PICK_LOG_WITNESSES : undefined);
  } catch (error) {
    problems.push(`PICK_LOG_WITNESSES: ${(error as Error).message}`);
  }
  if (parsed.success && parsed.data.MARKET_SCORES === 'espn' && marketLeagues) {
    const missing = marketLeagues.leagues.filter((league) => !ESPN_LEAGUE_PATHS[league]);
    if (missing.length)
      problems.push(
        `MARKET_SCORES: ESPN's scoreboard has no ${missing.join(', ')}: follow them with MARKET_SCORES=provider`,
      );
  }
  if (!parsed.success || problems.length > 0 || !marketLeagues) throw new ConfigError(problems);
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    role: e.ROLE,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    sessionSecret: e.SESSION_SECRET ?? persistentSecret(dataDir),
    admin:
      e.ADMIN_USERNAME && e.ADMIN_PASSWORD
        ? { username: e.ADMIN_USERNAME, password: e.ADMIN_PASSWORD }
        : undefined,
    supportPhone: e.SUPPORT_PHONE,
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_PUBLISHABLE_KEY
        ? {
            secretKey: e.STRIPE_SECRET_KEY,
            publishableKey: e.STRIPE_PUBLISHABLE_KEY,
            webhookSecret: e.STRIPE_WEBHOOK_SECRET,
          }
        : undefined,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    seedDemo: e.SEED_DEMO,
    resultsFeed: e.RESULTS_FEED_URL
      ? { url: e.RESULTS_FEED_URL, intervalSeconds: e.RESULTS_FEED_INTERVAL_SECONDS }
      : undefined,
    market: e.ODDS_API_KEY
      ? {
          apiKey: e.ODDS_API_KEY,
          url: e.ODDS_API_URL,
          refreshSeconds: e.MARKET_REFRESH_SECONDS,
          scores: e.MARKET_SCORES === 'espn' ? { source: 'espn', url: e.ESPN_URL } : { source: 'provider' },
          ...marketLeagues,
        }
      : undefined,
    marketRefreshSeconds: e.MARKET_REFRESH_SECONDS,
    marketLeagues,
    mediaTools,
    pickLog: {
      origin: e.PICK_LOG_ORIGIN,
      keyFile: e.PICK_LOG_KEY_FILE ? path.resolve(e.PICK_LOG_KEY_FILE) : undefined,
      acceptNewKey: e.PICK_LOG_NEW_KEY,
      witnesses,
    },
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM },
    publicUrl: e.PUBLIC_URL,
    push: {
      vapid: {
        ...(e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY
          ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY }
          : persistentVapidKeys(dataDir)),
        subject: e.VAPID_SUBJECT ?? `mailto:${parseSender(e.MAIL_FROM).address}`,
      },
      serviceHosts: e.PUSH_SERVICE_HOSTS,
    },
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          credentials:
            e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
              ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
              : undefined,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
          publicUrl: e.S3_PUBLIC_URL,
        }
      : undefined,
  };
}

/**
 * With no SESSION_SECRET the embedded default still needs a stable secret across restarts,
 * or every restart would sign everybody out: keep a random one under DATA_DIR.
 */
function persistentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  if (existsSync(file)) {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** Why a VAPID key pair cannot be used (web-push's own checks, and that the halves belong together), or null. */
function vapidKeysProblem(publicKey: string, privateKey: string): string | null {
  const base64url = /^[A-Za-z0-9_-]+$/;
  if (!base64url.test(publicKey) || Buffer.from(publicKey, 'base64url').length !== 65)
    return 'VAPID_PUBLIC_KEY must be a P-256 public key, 65 bytes in base64url (web-push generate-vapid-keys)';
  if (!base64url.test(privateKey) || Buffer.from(privateKey, 'base64url').length !== 32)
    return 'must be a P-256 private key, 32 bytes in base64url (web-push generate-vapid-keys)';
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
    if (ecdh.getPublicKey('base64url') !== publicKey) return 'is not the private half of VAPID_PUBLIC_KEY';
  } catch {
    return 'is not a P-256 private key';
  }
  return null;
}

/**
 * Without VAPID_* settings the keys are made once and kept under DATA_DIR: a new pair would void every
 * browser's subscription (each is bound to the public key it was made with).
 */
function persistentVapidKeys(dataDir: string): VapidKeys {
  const file = path.join(dataDir, 'vapid-keys.json');
  if (existsSync(file)) {
    try {
      const kept = JSON.parse(readFileSync(file, 'utf8')) as Partial<VapidKeys>;
      if (kept.publicKey && kept.privateKey && !vapidKeysProblem(kept.publicKey, kept.privateKey))
        return { publicKey: kept.publicKey, privateKey: kept.privateKey };
    } catch {
      // Unreadable: made anew below.
    }
  }
  mkdirSync(dataDir, { recursive: true });
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const keys = {
    publicKey: ecdh.getPublicKey('base64url'),
    // Padded to the 32 bytes web-push expects (a leading zero byte may be dropped).
    privateKey: Buffer.concat([Buffer.alloc(32), ecdh.getPrivateKey()])
      .subarray(-32)
      .toString('base64url'),
  };
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}
