import type { Db } from '#server/db/client.js';
import { eventBus, type EventType } from '#server/events/index.js';
import { forgetRecords } from './records-cache.js';

/** The events after which the records (profiles, leaderboard, badges) are read afresh at once. */
export const RECORDS_CHANGED_BY = [
  'pick.posted',
  'pick.revised',
  'pick.removed',
  'video.deleted',
  'game.settled',
  'leg.graded',
  'picks.regraded',
  'profile.changed',
  'user.deleted',
] as const satisfies readonly EventType[];

/** Drops the cached records after each commit that changed them; returns the unsubscribe. */
export function forgetRecordsOnChange(db: Db): () => void {
  return eventBus(db).afterCommit(RECORDS_CHANGED_BY, () => forgetRecords(db));
}
