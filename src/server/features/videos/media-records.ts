import type { Executor } from '#server/db/client.js';
import type { VideoRecords } from '#server/media/video-records.js';
import { findVideoRow, updateVideo } from './videos-repository.js';

/** The videos feature's side of media jobs: their video's row, read and written here. */
export function mediaVideoRecords(db: Executor): VideoRecords {
  return {
    find: (videoId) => findVideoRow(db, videoId),
    update: (videoId, changes) => updateVideo(db, videoId, changes),
  };
}
