// Picks sealed before the public log existed (issue 14's, on a database that predates migration 0011) are
// appended once, at the first start with the log, in the order they happened: each version's posting, the
// current grade and any removal. Without this a verifier would find graded picks on a profile that its log
// does not hold.
import { sql } from '#server/db/drizzle.js';
import type { Db } from '#server/db/client.js';
import { rowsOf } from '#server/db/rows.js';
import { appendToLog, lockEmptyLog, type LogAppend } from '../pick-log/index.js';

interface VersionRow {
  video_id: number;
  version: number;
  commitment: string;
  posted_at: Date | string;
  username: string;
}

interface PickRow {
  video_id: number;
  commitment: string;
  result: 'win' | 'loss' | 'push' | 'void' | null;
  units_won: string | number | null;
  units_risked: string | number | null;
  graded_at: Date | string | null;
  removed: 'capper' | 'moderation' | null;
  removed_at: Date | string | null;
  username: string;
}

const num = (value: string | number | null) => (value === null ? null : Number(value));

/** Returns how many entries it appended (0 when the log already has entries or there are no picks). */
export async function backfillPickLog(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    // The log's row lock first: two instances starting at once backfill once.
    if (!(await lockEmptyLog(tx))) return 0;
    const versions = rowsOf<VersionRow>(
      await tx.execute(sql`
        select v.video_id, v.version, v.commitment, v.posted_at, u.username
        from pick_versions v join picks p on p.video_id = v.video_id join users u on u.id = p.user_id`),
    );
    if (!versions.length) return 0;
    const picks = rowsOf<PickRow>(
      await tx.execute(sql`
        select p.video_id, p.commitment, p.result, p.units_won, p.units_risked, p.graded_at, p.removed,
          p.removed_at, u.username
        from picks p join users u on u.id = p.user_id`),
    );
    const items: (LogAppend & { order: number })[] = versions.map((v) => ({
      type: v.version === 1 ? 'posted' : 'revised',
      videoId: v.video_id,
      capper: v.username,
      commitment: v.commitment,
      at: new Date(v.posted_at),
      version: v.version,
      order: 0,
    }));
    for (const pick of picks) {
      if (pick.result !== null && pick.graded_at !== null)
        items.push({
          type: 'graded',
          videoId: pick.video_id,
          capper: pick.username,
          commitment: pick.commitment,
          at: new Date(pick.graded_at),
          result: pick.result,
          unitsWon: num(pick.units_won),
          unitsRisked: num(pick.units_risked),
          order: 1,
        });
      if (pick.removed !== null)
        items.push({
          type: 'removed',
          videoId: pick.video_id,
          capper: pick.username,
          commitment: pick.commitment,
          at: new Date(pick.removed_at ?? pick.graded_at ?? Date.now()),
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
