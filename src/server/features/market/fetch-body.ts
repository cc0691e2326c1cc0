// Reading a provider's answer: its body with a size limit, and what a failed fetch says (never a URL, which
// may carry a key). Shared by the market's adapters.

export class TooLargeError extends Error {}

/** A failed fetch in a few words: a timeout, the answer's size, or the system's error code. */
export function failure(error: unknown, timeoutMs: number): string {
  if (error instanceof TooLargeError) return error.message;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `no answer within ${timeoutMs} ms`;
  // undici's "fetch failed" says nothing; its cause has the system's code (ECONNREFUSED, UND_ERR_SOCKET).
  const cause = error instanceof Error ? error.cause : undefined;
  const code =
    cause && typeof cause === 'object' && 'code' in cause && typeof cause.code === 'string'
      ? cause.code
      : null;
  const message = error instanceof Error ? error.message : String(error);
  return `no answer (${code ? `${message}: ${code}` : message})`;
}

/** The body as text, refused past `limit` bytes whether announced by Content-Length or only read. */
export async function readBody(response: Response, limit: number): Promise<string> {
  const announced = Number(response.headers.get('content-length'));
  if (announced > limit) {
    await response.body?.cancel().catch(() => {});
    throw new TooLargeError(`the answer is over ${limit} bytes`);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw new TooLargeError(`the answer is over ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}
