// Every error the tus endpoint answers is `{ "message" }` JSON in product words, as every other error of the
// API (docs/decisions/007), @tus/server's own plain-text ones included.
// @tus/utils, not @tus/server: the library's server (and with it Node's fetch and web streams) is loaded
// with the first tus request (tus-library.ts), while these messages are read at start.
import { ERRORS } from '@tus/utils';
import type { HttpError } from '#server/lib/http-errors.js';

const SERVER_ERROR_MESSAGE = 'Server error. Please try again later.';

/** An error as @tus/server's hooks throw it: its status and the body to send. */
export type TusError = { status_code: number; body: string };

export const tusError = (error: HttpError): TusError => ({
  status_code: error.statusCode,
  body: JSON.stringify({ message: error.message }),
});

/** What @tus/server's own errors (plain-text bodies) say to a person; keyed by the library's text. */
const TUS_MESSAGES = new Map<string, string>([
  [ERRORS.MISSING_OFFSET.body, 'Upload-Offset is required.'],
  [ERRORS.ABORTED.body, 'The upload was interrupted. Please try again.'],
  [ERRORS.INVALID_TERMINATION.body, 'A finished upload cannot be cancelled.'],
  [ERRORS.ERR_LOCK_TIMEOUT.body, 'The upload is busy. Please try again shortly.'],
  [ERRORS.INVALID_CONTENT_TYPE.body, 'Expected application/offset+octet-stream.'],
  [ERRORS.FILE_NOT_FOUND.body, 'Upload not found.'],
  [ERRORS.INVALID_OFFSET.body, 'Upload-Offset does not match the upload.'],
  [ERRORS.FILE_NO_LONGER_EXISTS.body, 'This upload has expired. Please upload the file again.'],
  [ERRORS.ERR_SIZE_EXCEEDED.body, 'The chunk goes past the upload length.'],
  [ERRORS.ERR_MAX_SIZE_EXCEEDED.body, 'File too large: a video can be at most 15 GB.'],
  [ERRORS.INVALID_LENGTH.body, 'Upload-Length is required.'],
  [ERRORS.INVALID_METADATA.body, 'The upload details could not be read. Please try again.'],
  [ERRORS.UNSUPPORTED_CONCATENATION_EXTENSION.body, 'Parallel uploads are not supported.'],
  [ERRORS.UNSUPPORTED_CREATION_DEFER_LENGTH_EXTENSION.body, 'Upload-Length is required.'],
  [ERRORS.UNSUPPORTED_EXPIRATION_EXTENSION.body, 'This kind of upload is not supported.'],
]);

/** Product words for an error answer of the tus endpoint: by the library's text, else by status. */
export function tusClientMessage(status: number, body: string): string {
  if (status >= 500) return status === 501 ? 'This kind of upload is not supported.' : SERVER_ERROR_MESSAGE;
  const known = TUS_MESSAGES.get(body);
  if (known) return known;
  if (status === 412) return 'Unsupported tus version.';
  if (status === 404) return 'Upload not found.';
  if (status === 409) return 'Upload-Offset does not match the upload.';
  if (status === 413) return 'File too large: a video can be at most 15 GB.';
  if (status === 460) return 'The chunk was damaged on the way. Please try again.';
  if (body.startsWith('Invalid ')) return 'The upload request has an invalid header.';
  return 'The upload request could not be handled.';
}
