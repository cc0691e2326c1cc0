// A pick log site for the verifier's tests, played honest or not: written from pick-log.md with node:crypto
// (its own tree, proofs, keys and notes), so that it checks the common formats rather than repeating them.
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  EvidenceEntry,
  LogEntry,
  LoggedOutcome,
  LoggedResult,
  PickEntry,
} from '../../common/pick-log/index.js';
import { canonicalBytes, commitmentOf, type SealedPick } from '../../common/pick-seal.js';

export const sha256 = (bytes: Uint8Array): Buffer => createHash('sha256').update(bytes).digest();
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

// ---- Keys and signed notes (pick-log.md 'The checkpoint') ----

export interface LogKey {
  name: string;
  /** The verifier key string: `<name>+<key id hex>+<base64(0x01 ‖ public key)>`. */
  verifierKey: string;
  /** One signature line over `text`: `— <name> <base64(key id ‖ signature)>\n`. */
  signatureLine(text: string): string;
}

export function makeKey(name: string): LogKey {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return keyFrom(name, publicKey, privateKey);
}

function keyFrom(name: string, publicKey: KeyObject, privateKey: KeyObject): LogKey {
  // An Ed25519 SPKI is a 12-byte header and the 32-byte key.
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
  const keyId = sha256(Buffer.concat([Buffer.from(name), Buffer.from([0x0a, 0x01]), raw])).subarray(0, 4);
  return {
    name,
    verifierKey: `${name}+${keyId.toString('hex')}+${b64(Buffer.concat([Buffer.from([0x01]), raw]))}`,
    signatureLine: (text) =>
      `— ${name} ${b64(Buffer.concat([keyId, sign(null, Buffer.from(text, 'utf8'), privateKey)]))}\n`,
  };
}

export function checkpointText(origin: string, entries: readonly Uint8Array[]): string {
  return `${origin}\n${entries.length}\n${b64(treeRoot(entries))}\n`;
}

export function signedCheckpoint(key: LogKey, entries: readonly Uint8Array[], origin = key.name): string {
  const text = checkpointText(origin, entries);
  return `${text}\n${key.signatureLine(text)}`;
}

// ---- RFC 9162 §2.1, written plainly from the definitions ----

const leaf = (entry: Uint8Array) => sha256(Buffer.concat([Buffer.from([0]), entry]));
const node = (left: Uint8Array, right: Uint8Array) => sha256(Buffer.concat([Buffer.from([1]), left, right]));
/** The largest power of two smaller than n (n > 1). */
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function mth(entries: readonly Uint8Array[]): Buffer {
  if (entries.length === 0) return sha256(new Uint8Array());
  if (entries.length === 1) return leaf(entries[0]!);
  const k = split(entries.length);
  return node(mth(entries.slice(0, k)), mth(entries.slice(k)));
}

export function treeRoot(entries: readonly Uint8Array[]): Buffer {
  return mth(entries);
}

/**
 * The tree as the server stores it: the hash of every perfect subtree (level l, index i: entries
 * i·2^l to (i+1)·2^l − 1), some perhaps altered after signing; whatever is served is read from them.
 */
export class StoredTree {
  private readonly honest = new Map<string, Buffer>();

  constructor(
    readonly entries: readonly Uint8Array[],
    readonly altered: ReadonlyMap<string, Uint8Array> = new Map(),
  ) {}

  get size(): number {
    return this.entries.length;
  }

  /** The stored hash of a perfect subtree: the altered one if there is one (its parents keep theirs). */
  stored(level: number, index: number): Buffer {
    const altered = this.altered.get(`${level}:${index}`);
    return altered ? Buffer.from(altered) : this.honestNode(level, index);
  }

  /** MTH(D[start:end]) of a range a proof names, folded from stored perfect subtrees. */
  range(start: number, end: number): Buffer {
    const width = end - start;
    if (Number.isInteger(Math.log2(width)) && start % width === 0)
      return this.stored(Math.log2(width), start / width);
    const k = split(width);
    return node(this.range(start, start + k), this.range(start + k, end));
  }

  /** RFC 9162 §2.1.3.1 PATH(m, D[0:size]). */
  inclusionProof(m: number, size: number): Buffer[] {
    const path = (m: number, low: number, high: number): Buffer[] => {
      if (high - low <= 1) return [];
      const k = split(high - low);
      return m < k
        ? [...path(m, low, low + k), this.range(low + k, high)]
        : [...path(m - k, low + k, high), this.range(low, low + k)];
    };
    return path(m, 0, size);
  }

  /** RFC 9162 §2.1.4.1 PROOF(m, D[0:size]). */
  consistencyProof(m: number, size: number): Buffer[] {
    const subproof = (m: number, low: number, high: number, whole: boolean): Buffer[] => {
      if (m === high - low) return whole ? [] : [this.range(low, high)];
      const k = split(high - low);
      return m <= k
        ? [...subproof(m, low, low + k, whole), this.range(low + k, high)]
        : [...subproof(m - k, low + k, high, false), this.range(low, low + k)];
    };
    return m === 0 || m === size ? [] : subproof(m, 0, size, true);
  }

  private honestNode(level: number, index: number): Buffer {
    const key = `${level}:${index}`;
    let hash = this.honest.get(key);
    if (!hash) {
      hash =
        level === 0
          ? leaf(this.entries[index]!)
          : node(this.honestNode(level - 1, 2 * index), this.honestNode(level - 1, 2 * index + 1));
      this.honest.set(key, hash);
    }
    return hash;
  }
}

// ---- C2SP tlog-tiles, written plainly from the specification ----

const TILE = 256;

/** `<N>` or `<N>.p/<W>` after `tile/<L>/` or `tile/entries/`, as tlog-tiles writes it. */
function parseTilePath(text: string): { index: number; width: number } | null {
  const match = /^((?:x\d{3}\/)*\d{3})(?:\.p\/([1-9]\d?\d?))?$/.exec(text);
  if (!match) return null;
  return { index: Number(match[1]!.replace(/[x/]/g, '')), width: match[2] ? Number(match[2]) : TILE };
}

/** Each entry as a big-endian uint16 length, then its bytes. */
function entryBundle(entries: readonly Uint8Array[]): Buffer {
  return Buffer.concat(
    entries.flatMap((entry) => [Buffer.from([entry.length >> 8, entry.length & 0xff]), Buffer.from(entry)]),
  );
}

// ---- An honest log of picks, with what the site says about them ----

export interface FakePick {
  videoId: number;
  capper: string;
  sealed: SealedPick;
  commitment: string;
  version: number;
  grade: { result: LoggedResult; unitsWon: number; unitsRisked: number } | null;
  removed: 'moderation' | 'capper' | null;
}

export class HonestLog {
  readonly entries: LogEntry[] = [];
  readonly picks = new Map<number, FakePick>();
  private nextVideo = 100;
  /** Each pick's game's latest logged outcome and its entry's hash (a pick's game is its own). */
  private readonly outcomes = new Map<number, { outcome: LoggedOutcome; hash: string }>();
  private clock = Date.parse('2026-03-01T12:00:00Z');

  get bytes(): Uint8Array[] {
    return this.entries.map((entry) => canonicalBytes(entry));
  }

  async post(capper: string, odds = -110, units = 1): Promise<number> {
    const videoId = this.nextVideo++;
    const sealed = this.sealed(capper, videoId, odds, units);
    const pick: FakePick = {
      videoId,
      capper,
      sealed,
      commitment: await commitmentOf(sealed, sha256),
      version: 1,
      grade: null,
      removed: null,
    };
    this.picks.set(videoId, pick);
    this.append({ type: 'posted', videoId, capper, commitment: pick.commitment, version: 1 });
    return videoId;
  }

  async revise(videoId: number, odds: number): Promise<void> {
    const pick = this.pick(videoId);
    pick.sealed = {
      ...pick.sealed,
      legs: pick.sealed.legs.map((leg) => ({ ...leg, odds, price: { ...leg.price!, odds } })),
    };
    pick.commitment = await commitmentOf(pick.sealed, sha256);
    pick.version++;
    this.append({
      type: 'revised',
      videoId,
      capper: pick.capper,
      commitment: pick.commitment,
      version: pick.version,
    });
  }

  /**
   * Grades (or, with a null result, withdraws the grade of) a pick as the site would: its game's outcome
   * logged first (a correction when it had one), then the grade with the revealed pick, each leg resting on
   * that outcome. The pick's one leg is the home team's moneyline: a win is 110-100, a loss 100-110, a push
   * 100-100, a void a postponement.
   */
  grade(videoId: number, result: LoggedResult | null): void {
    const pick = this.pick(videoId);
    const leg = pick.sealed.legs[0]!;
    let settled: string | null = null;
    if (result !== null) {
      const outcome: LoggedOutcome =
        result === 'void'
          ? { status: 'postponed', homeScore: null, awayScore: null }
          : { status: 'final', homeScore: SCORES[result][0], awayScore: SCORES[result][1] };
      const game = {
        event: videoId,
        game: leg.game!,
        league: leg.league,
        home: leg.home,
        away: leg.away,
        startsAt: leg.startsAt,
        ...outcome,
        source: 'fake-feed',
      };
      const before = this.outcomes.get(videoId);
      const entry: EvidenceEntry = before
        ? {
            v: 2,
            type: 'corrected',
            at: '',
            ...game,
            before: before.outcome,
            reason: 'The feed was wrong.',
            settled: before.hash,
          }
        : { v: 2, type: 'settled', at: '', ...game };
      settled = sha256(canonicalBytes(this.append(entry))).toString('hex');
      this.outcomes.set(videoId, { outcome, hash: settled });
    }
    const won =
      result === 'win'
        ? leg.odds > 0
          ? (leg.units * leg.odds) / 100
          : (leg.units * 100) / -leg.odds
        : result === 'loss'
          ? -leg.units
          : 0;
    const grade =
      result === null
        ? null
        : {
            result,
            unitsWon: Math.round(won * 100) / 100,
            unitsRisked: result === 'win' || result === 'loss' ? leg.units : 0,
          };
    pick.grade = grade;
    this.append({
      type: 'graded',
      videoId,
      capper: pick.capper,
      commitment: pick.commitment,
      result,
      unitsWon: grade?.unitsWon ?? null,
      unitsRisked: grade?.unitsRisked ?? null,
      // Each fake pick is one bet, bound to the market.
      bets: result === null ? null : { win: 0, loss: 0, push: 0, void: 0, [result]: 1 },
      selfReported: false,
      sealed: pick.sealed,
      legs: [
        result === null ? { result: null, basis: null, settled: null } : { result, basis: 'score', settled },
      ],
    });
  }

  remove(videoId: number, reason: 'moderation' | 'capper'): void {
    const pick = this.pick(videoId);
    pick.removed = reason;
    this.append({ type: 'removed', videoId, capper: pick.capper, commitment: pick.commitment, reason });
  }

  /** GET /api/cappers/{username}, as an honest site would answer it, summed here from the picks. */
  profile(username: string, hide: (pick: FakePick) => boolean = () => false): unknown {
    const counted = [...this.picks.values()].filter(
      (pick) => pick.capper === username && pick.grade && pick.removed !== 'moderation' && !hide(pick),
    );
    const count = (result: LoggedResult) => counted.filter((pick) => pick.grade!.result === result).length;
    const cents = (units: number) => Math.round(units * 100);
    const unitsWon = counted.reduce((sum, pick) => sum + cents(pick.grade!.unitsWon), 0) / 100;
    const unitsRisked = counted.reduce((sum, pick) => sum + cents(pick.grade!.unitsRisked), 0) / 100;
    const [wins, losses] = [count('win'), count('loss')];
    const all = {
      wins,
      losses,
      pushes: count('push'),
      voids: count('void'),
      graded: counted.length,
      picks: counted.length,
      winPct: wins + losses === 0 ? null : Math.round((wins / (wins + losses)) * 1000) / 10,
      unitsWon,
      unitsRisked,
      roi: unitsRisked === 0 ? null : Math.round((unitsWon / unitsRisked) * 1000) / 10,
      clv: null,
    };
    return {
      capper: { username, displayName: null, bio: null, avatarUrl: null },
      records: { last30: all, last90: all, all },
      byLeague: [],
      chart: [],
      graded: [],
      gradedTotal: counted.length,
      open: [],
      unverified: 0,
      removedByModeration: 0,
    };
  }

  private pick(videoId: number): FakePick {
    const pick = this.picks.get(videoId);
    if (!pick) throw new Error(`no pick ${videoId}`);
    return pick;
  }

  private append(fields: Omit<PickEntry, 'v' | 'at'> | EvidenceEntry): LogEntry {
    this.clock += 60_000;
    const at = new Date(this.clock).toISOString().replace('.000Z', 'Z');
    const entry = { v: 2, ...fields, at } as LogEntry;
    this.entries.push(entry);
    return entry;
  }

  private sealed(capper: string, videoId: number, odds: number, units: number): SealedPick {
    const postedAt = new Date(this.clock).toISOString().replace('.000Z', 'Z');
    return {
      v: 2,
      capper,
      videoId,
      postedAt,
      selections: `${capper}'s play on video ${videoId}`,
      legs: [
        {
          league: 'NBA',
          home: 'Celtics',
          away: 'Knicks',
          // Hours after posting: the fake clock runs a minute an entry, far from any start.
          startsAt: new Date(this.clock + 24 * 3600_000).toISOString().replace('.000Z', 'Z'),
          market: 'moneyline',
          side: 'Celtics',
          line: null,
          odds,
          units,
          game: `fake:g${videoId}`,
          price: { book: 'fakebook', odds, line: null, at: postedAt },
        },
      ],
      parlay: false,
      salt: createHash('sha256').update(`salt ${videoId}`).digest('hex'),
    };
  }
}

/**
 * ~50 entries across 3 cappers: posted, revised, graded (wins, losses, a push, a void, a correction, a
 * withdrawn grade), removed by the capper after grading and by moderation.
 */
export async function honestLog(): Promise<HonestLog> {
  const log = new HonestLog();
  // Result, odds and units of each capper's six picks: +0.91u, -1.10u, +1.50u, -2.00u, 0, +0.87u.
  const results: [LoggedResult, number, number][] = [
    ['win', -110, 1],
    ['loss', -110, 1.1],
    ['win', 150, 1],
    ['loss', -110, 2],
    ['push', -110, 1],
    ['win', -115, 1],
  ];
  for (const [n, capper] of ['alice', 'bob', 'carol'].entries()) {
    const videos: number[] = [];
    for (const [, odds, units] of results) videos.push(await log.post(capper, odds, units));
    await log.revise(videos[1]!, -120);
    for (const [i, [result]] of results.entries()) log.grade(videos[i]!, result);
    if (n === 0) {
      // A correction: the game's outcome corrected, the first grade standing corrected by the latest.
      log.grade(videos[1]!, 'win');
      log.remove(videos[3]!, 'capper');
      log.remove(videos[4]!, 'moderation');
    }
    if (n === 1) {
      log.grade(videos[2]!, null);
      const voided = await log.post(capper);
      log.grade(voided, 'void');
      await log.post(capper);
    }
  }
  return log;
}

/** The final score (home, away) that makes the home moneyline each result. */
const SCORES: Record<'win' | 'loss' | 'push', [number, number]> = {
  win: [110, 100],
  loss: [100, 110],
  push: [100, 100],
};

// ---- The site ----

export interface FakeSiteState {
  /** The tree the checkpoint signs. */
  signed: Uint8Array[];
  /** What /api/log/entries serves; the signed tree unless a test says otherwise. */
  served: Uint8Array[] | null;
  /** The key the checkpoint is signed with, and the one /api/log/key serves. */
  signer: LogKey;
  publishedKey: string;
  /** A checkpoint note served as is, instead of one signed over `signed`. */
  checkpoint: string | null;
  /** At most this many entries per /api/log/entries answer (a server may answer fewer than asked). */
  pageLimit: number;
  reveals: Map<number, unknown>;
  profiles: Map<string, unknown>;
  /** Status answered for paths starting with a key. */
  failures: Map<string, number>;
  /** Stored nodes the operator altered after signing (`level:index` → hash): tiles and proofs read them. */
  altered: Map<string, Uint8Array>;
  /** Answers served as they are for a path and query, whatever the log holds. */
  answers: Map<string, string | Uint8Array>;
}

export class FakeSite {
  readonly requests: string[] = [];
  url = '';
  private server: Server | null = null;
  private tree: StoredTree | null = null;

  constructor(readonly state: FakeSiteState) {}

  static async honest(log: HonestLog, key = makeKey('fake.test/pick-log')): Promise<FakeSite> {
    const site = new FakeSite({
      signed: log.bytes,
      served: null,
      signer: key,
      publishedKey: key.verifierKey,
      checkpoint: null,
      pageLimit: 1000,
      reveals: new Map(),
      profiles: new Map(),
      failures: new Map(),
      altered: new Map(),
      answers: new Map(),
    });
    site.publish(log);
    await site.start();
    return site;
  }

  /** Serves `log` as its honest self: the signed tree, the reveals of graded picks, the profiles. */
  publish(log: HonestLog): void {
    this.state.signed = log.bytes;
    this.state.served = null;
    this.state.reveals.clear();
    for (const pick of log.picks.values())
      if (pick.grade && pick.removed !== 'moderation')
        this.state.reveals.set(pick.videoId, { sealed: pick.sealed, commitment: pick.commitment });
    for (const capper of new Set([...log.picks.values()].map((pick) => pick.capper)))
      this.state.profiles.set(capper, log.profile(capper));
  }

  async start(): Promise<void> {
    const server = createServer((request, response) => this.answer(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The stored tree of the signed entries, built again when a test signs other entries. */
  private stored(): StoredTree {
    const { signed, altered } = this.state;
    if (this.tree?.entries !== signed || this.tree.altered !== altered)
      this.tree = new StoredTree(signed, altered);
    return this.tree;
  }

  private answer(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://fake');
    this.requests.push(url.pathname + url.search);
    const state = this.state;
    const text = (status: number, body: string, type = 'text/plain; charset=utf-8') => {
      response.writeHead(status, { 'content-type': type });
      response.end(body);
    };
    const json = (status: number, body: unknown) => text(status, JSON.stringify(body), 'application/json');
    const int = (name: string) => Number(url.searchParams.get(name));

    for (const [prefix, status] of state.failures)
      if (url.pathname.startsWith(prefix)) return json(status, { message: 'Something went wrong' });
    const fixed = state.answers.get(url.pathname + url.search);
    if (fixed !== undefined) {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      return void response.end(fixed);
    }

    if (url.pathname === '/api/log/key') return text(200, state.publishedKey + '\n');
    if (url.pathname === '/api/log/checkpoint')
      return text(200, state.checkpoint ?? signedCheckpoint(state.signer, state.signed));
    if (url.pathname === '/api/log/entries') {
      const served = state.served ?? state.signed;
      const start = int('start');
      const end = Math.min(int('end'), start + Math.min(1000, state.pageLimit));
      return json(200, { entries: served.slice(start, end).map(b64) });
    }
    if (url.pathname === '/api/log/proof/consistency') {
      const [first, second] = [int('first'), int('second')];
      if (second > state.signed.length || first > second)
        return json(400, { message: 'Tree size too large' });
      const proof = this.stored().consistencyProof(first, second);
      return json(200, { first, second, hashes: proof.map(b64) });
    }
    if (url.pathname === '/api/log/proof/inclusion') {
      const [index, treeSize] = [int('index'), int('treeSize')];
      if (treeSize > state.signed.length || index >= treeSize)
        return json(400, { message: 'Index or tree size out of range' });
      const proof = this.stored().inclusionProof(index, treeSize);
      return json(200, { index, treeSize, hashes: proof.map(b64) });
    }
    const tile = /^\/api\/log\/tile\/(entries|0|[1-9]\d?)\/(.+)$/.exec(url.pathname);
    if (tile) {
      const ref = parseTilePath(tile[2]!);
      const level = tile[1] === 'entries' ? 0 : Number(tile[1]);
      const holds = Math.min(
        TILE,
        Math.floor(state.signed.length / TILE ** level) - (ref?.index ?? 0) * TILE,
      );
      if (!ref || ref.width > holds) return json(404, { message: 'No such tile' });
      const first = ref.index * TILE;
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      if (tile[1] === 'entries')
        return void response.end(entryBundle((state.served ?? state.signed).slice(first, first + ref.width)));
      const tree = this.stored();
      const hashes = Array.from({ length: ref.width }, (_, i) => tree.stored(8 * level, first + i));
      return void response.end(Buffer.concat(hashes));
    }
    const reveal = /^\/api\/picks\/(\d+)\/reveal$/.exec(url.pathname);
    if (reveal) {
      const answer = state.reveals.get(Number(reveal[1]));
      return answer ? json(200, answer) : json(403, { message: 'This pick is not revealed yet.' });
    }
    const capper = /^\/api\/cappers\/([^/]+)$/.exec(url.pathname);
    if (capper) {
      const profile = state.profiles.get(decodeURIComponent(capper[1]!));
      return profile ? json(200, profile) : json(404, { message: 'Capper not found' });
    }
    json(404, { message: 'Not found' });
  }
}
