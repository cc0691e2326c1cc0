// The log as C2SP tlog-tiles resources (docs/decisions/021): tiles of 256 hashes
// and bundles of 256 entries, read from the stored perfect subtrees and entries of the latest signed tree.
import { encodeEntryBundle, TILE_WIDTH, tileWidthIn, type TileRef } from '#common/pick-log/tiles.js';
import type { Executor } from '#server/db/client.js';
import { HttpError, notFound } from '#server/lib/http-errors.js';
import { readEntryBytes, readNodeRange } from './log-repository.js';
import { NO_CHECKPOINT_MESSAGE, type CheckpointCache } from './log-service.js';

export const NO_SUCH_TILE_MESSAGE =
  'No such tile in the signed tree: fetch the checkpoint first, then the tiles its size holds.';

/**
 * A 404 unless the latest signed tree holds tile `ref` at `level` (a 503 before the first checkpoint, as
 * GET /api/log/checkpoint).
 */
async function mustHold(checkpoints: CheckpointCache, level: number, ref: TileRef): Promise<void> {
  const checkpoint = await checkpoints.get();
  if (!checkpoint) throw new HttpError(503, NO_CHECKPOINT_MESSAGE, { 'retry-after': '1' });
  if (ref.width > tileWidthIn(checkpoint.size, level, ref.index)) throw notFound(NO_SUCH_TILE_MESSAGE);
}

/**
 * Tile `ref` at `level`: `ref.width` hashes of perfect subtrees of 256^level entries, 32 bytes each. Served
 * when the signed tree holds them; a partial tile's first hashes never change, so any width up to what the
 * tree holds is the same bytes whenever it is asked for.
 */
export async function tileBytes(
  db: Executor,
  checkpoints: CheckpointCache,
  level: number,
  ref: TileRef,
): Promise<Uint8Array> {
  await mustHold(checkpoints, level, ref);
  // A level-l hash is the root of 256^l = 2^(8l) entries: the stored node 8l levels above the leaves.
  const hashes = await readNodeRange(db, 8 * level, ref.index * TILE_WIDTH, ref.width);
  return Buffer.concat(hashes);
}

/** Entry bundle `ref`: the entries the level-0 tile of the same index and width hashes. */
export async function entryBundleBytes(
  db: Executor,
  checkpoints: CheckpointCache,
  ref: TileRef,
): Promise<Uint8Array> {
  await mustHold(checkpoints, 0, ref);
  const start = ref.index * TILE_WIDTH;
  return encodeEntryBundle(await readEntryBytes(db, start, start + ref.width));
}
