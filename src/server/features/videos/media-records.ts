import type { Executor } from '#server/db/client.js';
import { emit } from '#server/events/index.js';
import type { VideoRecords } from '#server/media/video-records.js';
import { findVideoRow, updateVideo } from './videos-repository.js';

/** The videos feature's side of media jobs: their video's row, read and written here. */
export function mediaVideoRecords(db: Executor): VideoRecords {
  return {
    find: (videoId) => findVideoRow(db, videoId),
    update: async (videoId, changes) => {
      // Progress alone changes no list; a new state (processing, ready, failed, queued again) is a change.
      if (changes.transcodingStatus === undefined) return updateVideo(db, videoId, changes);
      return db.transaction(async (tx) => {
        const row = await updateVideo(tx, videoId, changes);
        if (row) await emit(tx, { type: 'video.changed', videoId });
        return row;
      });
    },
  };
}
