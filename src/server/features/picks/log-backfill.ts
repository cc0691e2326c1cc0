// Picks sealed before the public log existed (on a database that predates migration 0011) are
// appended once, at the first start with the log, in the order they happened: each version's posting, the
// current grade and any removal. Without this a verifier would find graded picks on a profile that its log
// does not hold.
import type { Db } from '#server/db/client.js';
import { appendToLog, lockEmptyLog, type LogAppend } from '../pick-log/index.js';
import { listPicksForLog, listVersionsForLog } from './picks-repository.js';

/** Returns how many entries it appended (0 when the log already has entries or there are no picks). */
export async function backfillPickLog(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    // The log's row lock first: two instances starting at once backfill once.
    if (!(await lockEmptyLog(tx))) return 0;
    const versions = await listVersionsForLog(tx);
    if (!versions.length) return 0;
    const picks = await listPicksForLog(tx);
    const items: (LogAppend & { order: number })[] = versions.map((v) => ({
      type: v.version === 1 ? 'posted' : 'revised',
      videoId: v.videoId,
      capper: v.username,
      commitment: v.commitment,
      at: v.postedAt,
      version: v.version,
      order: 0,
    }));
    for (const pick of picks) {
      if (pick.result !== null && pick.gradedAt !== null)
        items.push({
          type: 'graded',
          videoId: pick.videoId,
          capper: pick.username,
          commitment: pick.commitment,
          at: pick.gradedAt,
          result: pick.result,
          unitsWon: pick.unitsWon,
          unitsRisked: pick.unitsRisked,
          order: 1,
        });
      if (pick.removed !== null)
        items.push({
          type: 'removed',
          videoId: pick.videoId,
          capper: pick.username,
          commitment: pick.commitment,
          at: pick.removedAt ?? pick.gradedAt ?? new Date(),
          reason: pick.removed,
          order: 2,
        });
    }
    // In time order; a pick's own entries in their natural order when they share a second.
    items.sort(
      (a, b) =>
        a.at.getTime() - b.at.getTime() ||
        a.videoId - b.videoId ||
        a.order - b.order ||
        (a.version ?? 0) - (b.version ?? 0),
    );
    await appendToLog(
      tx,
      items.map(({ order: _order, ...item }) => item),
    );
    return items.length;
  });
}
