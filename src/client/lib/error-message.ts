const STATUS_PREFIX = /^(\d{3}): ([\s\S]*)$/;

/**
 * Turns apiRequest's "status: body" errors into the sentence a person should read:
 * the server's {"message": "..."} when it sent one, else the raw text.
 */
export function errorMessage(error: unknown, fallback = 'Something went wrong. Please try again.'): string {
  if (!(error instanceof Error) || !error.message) return fallback;
  const match = STATUS_PREFIX.exec(error.message);
  if (!match) return error.message;
  const body = match[2]?.trim() ?? '';
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string') {
      return parsed.message;
    }
  } catch {
    // Not JSON: a proxy's or the status line's text, which is still worth showing.
  }
  return body || fallback;
}

/** The HTTP status of an apiRequest error, if it carries one. */
export function errorStatus(error: unknown): number | null {
  if (!(error instanceof Error)) return null;
  const match = STATUS_PREFIX.exec(error.message);
  return match ? Number(match[1]) : null;
}
