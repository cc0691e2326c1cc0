// Outside witnesses (docs/decisions/026, C2SP tlog-witness): each checkpoint the log signs is sent to every
// witness of PICK_LOG_WITNESSES with a consistency proof from the size that witness last cosigned, and the
// cosignatures are stored and served after the log's own signature line. Off every request's path: posting
// never waits, and a witness that is down or slow delays nothing but its own cosignature (retried with
// backoff, and left out of the rounds meanwhile).
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { bytesEqual, toBase64 } from '#common/pick-log/base64.js';
import { signatureLinesOf, verifyCosignature } from '#common/pick-log/cosignature.js';
import { consistencyProofPlan, planNodes, proofFromPlan } from '#common/pick-log/merkle.js';
import { webCryptoEd25519Verify, type VerifierKey } from '#common/pick-log/note.js';
import type { Db } from '#server/db/client.js';
import { nodeKey, readNodes, type CheckpointRow } from './log-repository.js';
import { sha256 } from './log-service.js';
import {
  cosignatureLinesOf,
  lastCosignedBy,
  saveCosignatures,
  type CosignatureRow,
} from './witnesses-repository.js';

/** A witness of PICK_LOG_WITNESSES: its verifier key (cosignature/v1) and its submission prefix. */
export interface PickLogWitness {
  verifierKey: string;
  key: VerifierKey;
  url: string;
}

export interface WitnessTiming {
  /** The wait after a witness's first failure; it doubles with each further one, up to maxRetryMs. */
  firstRetryMs: number;
  maxRetryMs: number;
  /**
   * An unchanged checkpoint is sent again after this long, so an idle log's cosignatures stay recent: their
   * time is the witness's word that the log was no larger then, which a verifier may require.
   */
  refreshMs: number;
  /** One add-checkpoint request, its answer included. */
  timeoutMs: number;
  /** How long a round waits for its witnesses before the checkpoint is served with what it has. */
  roundMs: number;
  /**
   * The least time from one round's start to the next: a busy log signs a checkpoint per write, and a round
   * for each (requests, verifications, a proof read and a commit) slowed the posts themselves.
   */
  roundGapMs: number;
}

export const WITNESS_TIMING: WitnessTiming = {
  firstRetryMs: 1000,
  maxRetryMs: 60_000,
  refreshMs: 5 * 60_000,
  timeoutMs: 10_000,
  roundMs: 2000,
  roundGapMs: 500,
};

/** 409s in a row (another instance reached the witness first) before they count as a failure. */
const MAX_CONFLICTS = 3;

interface Peer {
  witness: PickLogWitness;
  /** The size the witness last cosigned, as far as this process knows (a 409 corrects it). */
  size: number;
  /** The latest checkpoint it cosigned here, and when its answer came. */
  cosigned: { size: number; root: Uint8Array; at: number } | null;
  failures: number;
  retryAt: number;
  retryTimer: NodeJS.Timeout | null;
  /** Its request of an earlier round, still unanswered: later rounds leave it out meanwhile. */
  sending: Promise<void> | null;
  /** The sizes last warned about when the witness is ahead of the log: told once. */
  aheadWarned: string | null;
}

type Answer = { done: true } | { conflict: number };

/**
 * Sends the log's checkpoints to its witnesses in rounds: the newest checkpoint to every witness that is up,
 * together, so that they cosign the same checkpoints. A round ends when they have answered, or after
 * roundMs; its checkpoint is then the one served (served()), with the cosignatures it got.
 */
export class WitnessSender {
  private readonly peers: Peer[];
  private latest: CheckpointRow | null = null;
  private finished: CheckpointRow | null = null;
  private rounds: Promise<void> | null = null;
  private roundStartedAt = 0;
  private again = false;
  private stopped = false;
  private refreshTimer: NodeJS.Timeout | null = null;
  private readonly abort = new AbortController();
  /**
   * Cosignatures answered and not stored yet: a round stores its witnesses' together, in one statement, so
   * that each checkpoint costs the database one commit however many witnesses there are.
   */
  private unsaved: { row: CosignatureRow; peer: Peer; checkpoint: CheckpointRow }[] = [];
  /** The round's consistency proofs by their two sizes: its witnesses mostly need the same one. */
  private proofs = new Map<string, Promise<Uint8Array[]>>();

  constructor(
    private readonly db: Db,
    witnesses: readonly PickLogWitness[],
    private readonly log: FastifyBaseLogger,
    /** A cosignature of the checkpoint of this size was stored. */
    private readonly onCosigned: (size: number) => void,
    private readonly timing: WitnessTiming = WITNESS_TIMING,
  ) {
    this.peers = witnesses.map((witness) => ({
      witness,
      size: 0,
      cosigned: null,
      failures: 0,
      retryAt: 0,
      retryTimer: null,
      sending: null,
      aheadWarned: null,
    }));
  }

  /** Reads what each witness cosigned here before, so the first request after a restart names its size. */
  async start(): Promise<void> {
    for (const peer of this.peers) {
      const last = await lastCosignedBy(this.db, peer.witness.verifierKey);
      if (!last) continue;
      peer.size = last.size;
      peer.cosigned = { size: last.size, root: last.root, at: last.cosignedAt.getTime() };
    }
    if (!this.peers.length) return;
    this.refreshTimer = setInterval(() => this.kick(), Math.min(this.timing.refreshMs, 60_000));
    this.refreshTimer.unref();
  }

  /** The log signed a checkpoint (log-writer.ts): a round sends it to the witnesses, in the background. */
  signed(checkpoint: CheckpointRow): void {
    this.latest = checkpoint;
    this.kick();
  }

  /**
   * The checkpoint to serve: the last whose round ended (the witnesses that are up have answered for it),
   * or `latest` when there are no witnesses or no round has ended yet.
   */
  served(latest: CheckpointRow): CheckpointRow {
    return this.peers.length && this.finished ? this.finished : latest;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    for (const peer of this.peers) if (peer.retryTimer) clearTimeout(peer.retryTimer);
    await Promise.allSettled([this.rounds, ...this.peers.map((peer) => peer.sending)]);
  }

  private kick(): void {
    if (this.stopped || !this.latest || !this.peers.length) return;
    if (this.rounds) {
      this.again = true;
      return;
    }
    this.rounds = (async () => {
      do {
        this.again = false;
        // Checkpoints signed meanwhile are not lost: the round sends the latest.
        const wait = this.roundStartedAt + this.timing.roundGapMs - Date.now();
        if (wait > 0)
          await sleep(wait, undefined, { signal: this.abort.signal, ref: false }).catch(() => undefined);
        if (this.stopped) return;
        this.roundStartedAt = Date.now();
        await this.round(this.latest!);
      } while (this.again && !this.stopped);
    })()
      .catch((err: unknown) => this.log.error({ err }, 'pick log: a round of witness requests failed'))
      .finally(() => {
        this.rounds = null;
      });
  }

  private async round(checkpoint: CheckpointRow): Promise<void> {
    const now = Date.now();
    this.proofs = new Map();
    const sends: Promise<void>[] = [];
    for (const peer of this.peers) {
      if (peer.sending || !this.due(peer, checkpoint, now)) continue;
      peer.sending = this.send(peer, checkpoint)
        .catch((err: unknown) => this.failed(peer, checkpoint, `failed: ${(err as Error).message}`))
        .finally(() => {
          peer.sending = null;
          // It may have missed newer checkpoints while it answered this one.
          this.kick();
        });
      sends.push(peer.sending);
    }
    if (sends.length)
      await Promise.race([
        Promise.allSettled(sends),
        sleep(this.timing.roundMs, undefined, { signal: this.abort.signal, ref: false }).catch(
          () => undefined,
        ),
      ]);
    // Answers that came after an earlier round ended are stored with this round's.
    await this.store();
    this.finished = checkpoint;
  }

  /** Stores the cosignatures answered so far, in one statement; then they count as the witnesses' latest. */
  private async store(): Promise<void> {
    const batch = this.unsaved.splice(0);
    if (!batch.length) return;
    try {
      await saveCosignatures(
        this.db,
        batch.map(({ row }) => row),
      );
    } catch (err) {
      for (const { peer, checkpoint } of batch) {
        // Sent again at the next round: the witness, at this size already, cosigns the same checkpoint anew.
        peer.cosigned = null;
        this.failed(peer, checkpoint, `its cosignature was not stored: ${(err as Error).message}`);
      }
      return;
    }
    for (const { peer, row } of batch) {
      if (peer.failures > 0)
        this.log.info(
          { witness: peer.witness.key.name, size: row.size },
          'pick log: a witness cosigns again',
        );
      peer.failures = 0;
      peer.retryAt = 0;
    }
    for (const size of new Set(batch.map(({ row }) => row.size))) this.onCosigned(size);
  }

  /** Whether this round sends the checkpoint to this witness. */
  private due(peer: Peer, checkpoint: CheckpointRow, now: number): boolean {
    if (now < peer.retryAt) {
      if (!peer.retryTimer) {
        peer.retryTimer = setTimeout(() => {
          peer.retryTimer = null;
          this.kick();
        }, peer.retryAt - now);
        peer.retryTimer.unref();
      }
      return false;
    }
    const { cosigned } = peer;
    const current =
      cosigned !== null && cosigned.size === checkpoint.size && bytesEqual(cosigned.root, checkpoint.root);
    if (current && now - cosigned.at < this.timing.refreshMs) return false;
    if (peer.size > checkpoint.size) {
      // Nothing to prove from there: a newer checkpoint (another instance's) will pass it, unless the log
      // went back, which the witness rightly refuses to cosign.
      const sizes = `${peer.size}>${checkpoint.size}`;
      if (peer.aheadWarned !== sizes)
        this.log.warn(
          { witness: peer.witness.key.name, witnessSize: peer.size, logSize: checkpoint.size },
          'pick log: a witness has cosigned a larger tree than the log holds',
        );
      peer.aheadWarned = sizes;
      return false;
    }
    return true;
  }

  private async send(peer: Peer, checkpoint: CheckpointRow): Promise<void> {
    for (let conflicts = 0; ; conflicts++) {
      const answer = await this.post(peer, checkpoint);
      if ('done' in answer) return;
      // tlog-witness 409: the witness's own size, to prove from (another instance may have sent it more).
      peer.size = answer.conflict;
      if (answer.conflict > checkpoint.size) return;
      if (conflicts + 1 >= MAX_CONFLICTS)
        return this.failed(peer, checkpoint, `answered 409 ${MAX_CONFLICTS} times in a row`);
    }
  }

  private async post(peer: Peer, checkpoint: CheckpointRow): Promise<Answer> {
    const { witness } = peer;
    const old = peer.size;
    // tlog-witness: no proof from 0 (the empty tree precedes every tree), nor between equal sizes.
    const proof = old > 0 && old < checkpoint.size ? await this.roundProof(old, checkpoint.size) : [];
    const body = `old ${old}\n${proof.map((hash) => `${toBase64(hash)}\n`).join('')}\n${checkpoint.note}`;
    let status: number;
    let text: string;
    try {
      const response = await fetch(`${witness.url}/add-checkpoint`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        body,
        signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(this.timing.timeoutMs)]),
      });
      status = response.status;
      text = await response.text();
    } catch (err) {
      const cause = (err as { cause?: Error }).cause;
      this.failed(peer, checkpoint, `unreachable: ${(cause ?? (err as Error)).message}`);
      return { done: true };
    }
    if (status === 200) {
      await this.cosigned(peer, checkpoint, text);
      return { done: true };
    }
    const size = status === 409 ? /^(0|[1-9][0-9]*)\n?$/.exec(text) : null;
    if (size && Number.isSafeInteger(Number(size[1]))) return { conflict: Number(size[1]) };
    // 422: the witness holds a checkpoint this tree does not extend: a fork, or a log that went back.
    const level = status === 422 ? 'error' : 'warn';
    this.failed(peer, checkpoint, `answered ${status}: ${text.trim().slice(0, 300)}`, level);
    return { done: true };
  }

  private async cosigned(peer: Peer, checkpoint: CheckpointRow, answer: string): Promise<void> {
    const { witness } = peer;
    // tlog-witness: the answer's lines verify as signature lines of the checkpoint itself.
    const note = `${checkpoint.note}${answer}`;
    let timestamp: number;
    let line: string;
    try {
      ({ timestamp } = await verifyCosignature(note, witness.key, webCryptoEd25519Verify));
      line = signatureLinesOf(note, witness.key).at(-1)!.trimEnd();
    } catch (err) {
      const why = (err as Error).message;
      return this.failed(peer, checkpoint, `answered a cosignature that does not verify (${why})`);
    }
    this.unsaved.push({
      peer,
      checkpoint,
      row: {
        size: checkpoint.size,
        witness: witness.verifierKey,
        root: checkpoint.root,
        line,
        cosignedAt: new Date(timestamp * 1000),
      },
    });
    peer.size = checkpoint.size;
    peer.cosigned = { size: checkpoint.size, root: checkpoint.root, at: Date.now() };
    peer.aheadWarned = null;
  }

  private failed(peer: Peer, checkpoint: CheckpointRow, why: string, level: 'warn' | 'error' = 'warn'): void {
    if (this.stopped) return;
    peer.failures += 1;
    const wait = Math.min(this.timing.maxRetryMs, this.timing.firstRetryMs * 2 ** (peer.failures - 1));
    peer.retryAt = Date.now() + wait;
    this.log[level](
      { witness: peer.witness.key.name, url: peer.witness.url, size: checkpoint.size, retryInMs: wait },
      `pick log: witness ${why}`,
    );
  }

  /** The proof from first to second, read once per round. */
  private roundProof(first: number, second: number): Promise<Uint8Array[]> {
    const key = `${first}:${second}`;
    let proof = this.proofs.get(key);
    if (!proof) {
      proof = this.proof(first, second);
      this.proofs.set(key, proof);
    }
    return proof;
  }

  /** RFC 9162 §2.1.4.1 PROOF(first, D[second]) from the stored subtrees. */
  private async proof(first: number, second: number): Promise<Uint8Array[]> {
    const plan = consistencyProofPlan(first, second);
    const nodes = await readNodes(this.db, planNodes([plan]));
    return proofFromPlan(plan, (id) => nodes.get(nodeKey(id))!, sha256);
  }
}

/**
 * A checkpoint with its cosignatures, as GET /api/log/checkpoint serves it. The served checkpoint's lines are
 * read at most every quarter second (as the checkpoint itself is), at once when this process stored one.
 */
export class CosignedCheckpoints {
  private cached: { checkpoint: CheckpointRow; lines: string[]; at: number } | null = null;

  constructor(
    private readonly db: Db,
    private readonly maxAgeMs = 250,
  ) {}

  /** A cosignature of the checkpoint of `size` was stored. */
  stored(size: number): void {
    if (this.cached?.checkpoint.size === size) this.cached = null;
  }

  /** The signed note and the cosignature lines of its checkpoint, each with its newline. */
  async noteOf(checkpoint: CheckpointRow): Promise<string> {
    let cached = this.cached;
    if (cached?.checkpoint !== checkpoint || Date.now() - cached.at >= this.maxAgeMs) {
      const lines = await cosignatureLinesOf(this.db, checkpoint.size, checkpoint.root);
      cached = { checkpoint, lines, at: Date.now() };
      this.cached = cached;
    }
    return `${checkpoint.note}${cached.lines.map((line) => `${line}\n`).join('')}`;
  }
}
