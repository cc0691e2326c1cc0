// Sends an upload (spec 7 POST /api/videos; docs/product-decisions.md 'Media'): files up to 50 MB and links as one
// multipart request with real progress, larger files over tus in chunks (2 MB, or 32 MiB with media in a
// bucket), resumable.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_CATEGORY,
  STANDARD_UPLOAD_MAX_BYTES,
  STANDARD_UPLOAD_TIMEOUT_MS,
} from '#common/constants.js';
import type { Leg } from '#common/schemas/picks.js';
import type { UploadResult } from '#common/schemas/uploads.js';
import type { Video } from '#common/schemas/videos.js';
import { appConfig } from '#client/lib/app-config.ts';
import { messageForStatus, NETWORK_ERROR_MESSAGE, TIMEOUT_MESSAGE, UploadError } from './upload-errors';

export interface UploadRequest {
  title: string;
  description: string;
  emailInformation: string;
  price: number;
  category?: string;
  /** Whole seconds from the file's metadata, when the browser could read it. */
  duration?: number;
  userId: number;
  file?: File;
  externalVideoUrl?: string;
  /** The pick's legs (none: sold as unverified), and whether they make a parlay. */
  legs?: Leg[];
  parlay?: boolean;
  /**
   * Aborting stops the upload. Aborted with USER_CANCELLED as the reason, a tus upload is also ended on
   * the server; with any other reason (the page going away) it stays there, to be resumed.
   */
  signal?: AbortSignal;
}

/** The abort reason of the user's Cancel. */
export const USER_CANCELLED = 'user-cancelled';

/**
 * spec 4 'Upload': the bytes go (`percent` reaches 100 once the last byte is sent, while the server still
 * takes the file in), then the server has the upload: a file is being processed, a link is ready.
 */
export type UploadPhase =
  { phase: 'uploading'; percent: number; real: boolean } | { phase: 'uploaded'; processing: boolean };

export type OnPhase = (phase: UploadPhase) => void;

/** spec 7: the text fields of the form, in order, as text ('true'/'false' for flags). */
function textFields(request: UploadRequest): Record<string, string> {
  const isExternal = !request.file;
  return {
    title: request.title,
    description: request.description,
    emailInformation: request.emailInformation,
    price: String(request.price),
    category: request.category ?? DEFAULT_CATEGORY,
    duration: request.duration === undefined ? '' : String(request.duration),
    isPremium: 'true',
    userId: String(request.userId),
    isExternalVideo: isExternal ? 'true' : 'false',
    // JSON text in the multipart form and the tus metadata alike.
    legs: JSON.stringify(request.legs ?? []),
    parlay: request.parlay ? 'true' : 'false',
  };
}

/** spec 4: simulated progress, only where the browser reports no real progress. */
function simulatedProgress(onPercent: (percent: number) => void): () => void {
  let percent = 0;
  const timer = setInterval(() => {
    percent = Math.min(99, percent + (percent < 60 ? 5 : percent < 80 ? 3 : percent < 90 ? 2 : 1));
    onPercent(percent);
  }, 500);
  return () => clearInterval(timer);
}

/** The standard path: one multipart request, XMLHttpRequest for its upload progress events. */
function sendMultipart(request: UploadRequest, onPhase: OnPhase): Promise<number> {
  const { signal } = request;
  const form = new FormData();
  for (const [name, value] of Object.entries(textFields(request))) form.append(name, value);
  if (request.file) form.append('video', request.file, request.file.name);
  else form.append('externalVideoUrl', request.externalVideoUrl ?? '');

  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    let stopSimulation: (() => void) | null = simulatedProgress((percent) =>
      onPhase({ phase: 'uploading', percent, real: false }),
    );
    const stop = () => {
      stopSimulation?.();
      stopSimulation = null;
    };
    xhr.open('POST', '/api/videos');
    xhr.withCredentials = true;
    xhr.timeout = STANDARD_UPLOAD_TIMEOUT_MS;
    xhr.upload.onprogress = (event) => {
      if (!event.lengthComputable) return;
      stop();
      // Floored: 100 means every byte is sent (the browser ends with a progress event at the last one).
      const percent = Math.min(100, Math.floor((event.loaded / event.total) * 100));
      onPhase({ phase: 'uploading', percent, real: true });
    };
    xhr.upload.onload = () => {
      stop();
      onPhase({ phase: 'uploading', percent: 100, real: true });
    };
    xhr.onload = () => {
      stop();
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve((JSON.parse(xhr.responseText) as Video).id);
        } catch {
          reject(
            new UploadError(
              'Upload failed: the server sent an unreadable answer. Please try again.',
              xhr.status,
            ),
          );
        }
        return;
      }
      reject(new UploadError(messageForStatus(xhr.status, xhr.responseText, xhr.statusText), xhr.status));
    };
    xhr.onerror = () => {
      stop();
      reject(new UploadError(NETWORK_ERROR_MESSAGE));
    };
    xhr.ontimeout = () => {
      stop();
      reject(new UploadError(TIMEOUT_MESSAGE));
    };
    xhr.onabort = () => {
      stop();
      reject(new UploadError('Upload cancelled.'));
    };
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

/** Large files: tus, in the server's chunk size; picking the same file again after a reload resumes where it stopped. */
async function sendResumable(request: UploadRequest & { file: File }, onPhase: OnPhase) {
  const { signal } = request;
  const { Upload } = await import('tus-js-client');
  return new Promise<number>((resolve, reject) => {
    const upload = new Upload(request.file, {
      endpoint: '/api/uploads',
      // 2 MB on disk; whole S3 parts when media is in a bucket (the server says which: docs/decisions/022).
      chunkSize: appConfig.uploadChunkBytes,
      // A dropped connection is retried, then resumed from the server's offset.
      retryDelays: [0, 1000, 3000, 5000, 10000, 20000],
      removeFingerprintOnSuccess: true,
      metadata: {
        // An empty value reaches the server as a key without one (null), which the text fields refuse
        // ("expected string"): left out, it takes the field's default, as in the multipart form.
        ...Object.fromEntries(Object.entries(textFields(request)).filter(([, value]) => value !== '')),
        filename: request.file.name,
        filetype: request.file.type || 'video/quicktime',
      },
      onProgress(sent, total) {
        const percent = total ? Math.min(100, Math.floor((sent / total) * 100)) : 0;
        onPhase({ phase: 'uploading', percent, real: true });
      },
      onSuccess({ lastResponse }) {
        const body = lastResponse.getBody();
        const fromBody = body ? (JSON.parse(body) as Partial<UploadResult>).videoId : undefined;
        if (fromBody) return resolve(fromBody);
        // Finished in an earlier visit: ask which video it became.
        fetch(`${upload.url}/video`, { credentials: 'include' })
          .then(async (res) => {
            if (!res.ok)
              throw new UploadError(
                messageForStatus(res.status, await res.text(), res.statusText),
                res.status,
              );
            resolve(((await res.json()) as UploadResult).videoId);
          })
          .catch((error: unknown) =>
            reject(error instanceof UploadError ? error : new UploadError(NETWORK_ERROR_MESSAGE)),
          );
      },
      onError(error) {
        const response = (error as { originalResponse?: { getStatus(): number; getBody(): string } | null })
          .originalResponse;
        if (response)
          reject(
            new UploadError(messageForStatus(response.getStatus(), response.getBody()), response.getStatus()),
          );
        else reject(new UploadError(NETWORK_ERROR_MESSAGE));
      },
    });
    signal?.addEventListener(
      'abort',
      () => {
        // The user's Cancel terminates it (tus DELETE): its bytes go, it stops counting against the
        // per-user caps at once, and the stored fingerprint goes so the same file starts afresh. A failed
        // DELETE leaves it to expire.
        upload.abort(signal.reason === USER_CANCELLED).catch(() => {});
        reject(new UploadError('Upload cancelled.'));
      },
      { once: true },
    );
    upload
      .findPreviousUploads()
      .then((previous) => {
        if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
        upload.start();
      })
      .catch(() => upload.start());
  });
}

/** Uploads and answers the new video's id. */
export function uploadVideo(request: UploadRequest, onPhase: OnPhase): Promise<number> {
  if (request.file && request.file.size > STANDARD_UPLOAD_MAX_BYTES) {
    return sendResumable({ ...request, file: request.file }, onPhase);
  }
  return sendMultipart(request, onPhase);
}

/** spec 4/7: after any upload the video lists are refreshed. */
export function useUploadVideo(onPhase: OnPhase) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: UploadRequest) => uploadVideo(request, onPhase),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['/api/videos'] }),
        queryClient.invalidateQueries({ queryKey: ['/api/user/videos'] }),
        // A new game posted on is a known event now.
        queryClient.invalidateQueries({ queryKey: ['/api/events'] }),
      ]);
    },
  });
}
