// Node's HTTP parser copies every piece of a request body (up to 64 KB) into a buffer of its own, outside
// V8's heap, freed only when V8 collects the small Buffer object that points at it. V8 sees little garbage
// and collects rarely, so a 1 GB upload left ~35 MB of dead buffers in the process (issue 4: ≤ 200 MB of
// RSS during an upload). A young-generation collection after every 4 MB of upload bytes keeps that to a
// few MB, for about half a millisecond each time (docs/decisions/007).
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

export const COLLECT_EVERY_BYTES = 4 * 1024 * 1024;

export interface UploadMemory {
  /** Counts bytes of an upload's body that went through; collects the young generation now and then. */
  received(bytes: number): void;
}

/**
 * V8's own `gc`, taken from a fresh context (`--expose-gc` set just for that, then unset: no global `gc`
 * appears in ours). `{ type: 'minor' }` asks for a young-generation collection only, a scavenge.
 * Null where the runtime refuses (the uploads then work as before, with more memory).
 */
export function youngGenerationCollector(): (() => void) | null {
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('typeof gc === "function" ? gc : null');
    v8.setFlagsFromString('--no-expose-gc');
    if (typeof gc !== 'function') return null;
    return () => gc({ type: 'minor' });
  } catch {
    return null;
  }
}

export function createUploadMemory(
  collect: (() => void) | null = youngGenerationCollector(),
  everyBytes = COLLECT_EVERY_BYTES,
): UploadMemory {
  let sinceCollection = 0;
  return {
    received(bytes) {
      sinceCollection += bytes;
      if (sinceCollection < everyBytes || !collect) return;
      sinceCollection = 0;
      collect();
    },
  };
}
