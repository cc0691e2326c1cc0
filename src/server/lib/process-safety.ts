// No background task may take a serving process down: a promise rejected with
// nobody listening is a bug to log and fix, not a reason to drop every visitor's connection.

interface ErrorLog {
  error(object: { err: unknown }, message: string): void;
}

/** Logs unhandled rejections instead of letting Node exit on them. Call once, in the entry point. */
export function logUnhandledRejections(log: ErrorLog): void {
  process.on('unhandledRejection', (reason) => {
    log.error({ err: reason }, 'unhandled promise rejection; the server goes on');
  });
}
