/**
 * Polls `probe` until it gives a value (a rejection counts as none yet), every `everyMs`, for 90 s; then
 * fails naming what it waited for, with `log()` (a child process's output) beside it.
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  log: () => string,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`timed out waiting for ${what}\n${log()}`);
}
