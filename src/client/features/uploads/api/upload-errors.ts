// spec 8 'Upload (standard path)': a message per status, then the friendly rewrites.

export class UploadError extends Error {
  constructor(
    message: string,
    public readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

export const NETWORK_ERROR_MESSAGE =
  'Network error: Unable to connect to the server. Please check your connection and try again.';
export const TIMEOUT_MESSAGE = 'Upload timed out. Please try again with a faster connection.';

/** The server's `{ message }`, if the body is one. */
function serverMessage(body: string): string | null {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string') {
      return parsed.message;
    }
  } catch {
    // not JSON
  }
  return null;
}

/** spec 8's table: what a failed upload response says. */
export function messageForStatus(status: number, body: string, statusText = ''): string {
  switch (status) {
    case 413:
      return 'File size too large. Please use the chunked upload option for files larger than 50MB.';
    case 415:
      return 'Invalid file format. Please upload a supported video format (MOV, WebM, etc.).';
    case 400:
      return serverMessage(body) ?? 'Upload validation failed. Please check your input.';
    case 401:
      return 'You need to be logged in to upload videos. Please sign in and try again.';
    case 500:
      return 'Server error. Our team has been notified. Please try again later.';
    default:
      return `Upload failed: ${status} ${serverMessage(body) ?? (body || statusText)}. Please try again.`;
  }
}

const REWRITES: Array<[RegExp, string]> = [
  [/size too large|file too large/i, 'The file is too large. Please upload a video smaller than 15GB.'],
  // "format" of a file, not the accepted link formats a URL message lists
  [/\b(file|video) format\b/i, 'Invalid video format. Please upload a MOV format video file.'],
  [/network/i, NETWORK_ERROR_MESSAGE],
  [/unauthori[sz]ed/i, 'Your session has expired. Please sign in again.'],
  [/timed out|timeout/i, TIMEOUT_MESSAGE],
  [
    /socket|ECONNRESET|connection (was )?(reset|closed|interrupted)/i,
    'The connection was interrupted. Please try again.',
  ],
];

/** spec 8 'Friendly rewrites': what the toast finally says. */
export function friendlyUploadMessage(message: string): string {
  for (const [pattern, rewrite] of REWRITES) if (pattern.test(message)) return rewrite;
  return message;
}
