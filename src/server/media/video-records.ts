import type { videos } from '../db/schema.js';

type VideoRow = typeof videos.$inferSelect;

/**
 * What a media job reads and writes of its video: its row, then its status, progress and media. The videos
 * feature provides it (features/videos/media-records.ts), so media knows no feature.
 */
export interface VideoRecords {
  find(videoId: number): Promise<VideoRow | undefined>;
  /**
   * Applies the changes; the row as it is now, or undefined when the video is gone. A change of state
   * (transcodingStatus) is announced to whatever caches the video (the provider emits video.changed).
   */
  update(videoId: number, changes: Partial<typeof videos.$inferInsert>): Promise<VideoRow | undefined>;
}
