import pino from 'pino';

/** How much log text may wait for the disk or the pipe before new lines are dropped. */
export const LOG_BUFFER_MAX_BYTES = 4 * 1024 * 1024;
const DROP_REPORT_INTERVAL_MS = 60_000;

export interface BoundedLogDestination {
  stream: ReturnType<typeof pino.destination>;
  /** Lines dropped because the buffer was full, since the start. */
  dropped(): number;
}

/**
 * The server's log destination: stdout (or `fd`), written asynchronously like pino's default, but with a
 * bounded buffer. Under a load the reader of the log cannot keep up with (a slow disk, a stalled pipe, a log
 * collector that is down), pino's default buffer grows without limit, and the heap with it. Here what does
 * not fit is dropped instead, and one line a minute at most (the first a second after the loss) says how many
 * lines were lost, so memory stays bounded and the loss is visible.
 */
export function boundedLogDestination({
  fd = 1,
  maxBytes = LOG_BUFFER_MAX_BYTES,
  reportAfterMs = 1_000,
  reportIntervalMs = DROP_REPORT_INTERVAL_MS,
}: {
  fd?: number;
  maxBytes?: number;
  reportAfterMs?: number;
  reportIntervalMs?: number;
} = {}): BoundedLogDestination {
  const stream = pino.destination({ dest: fd, sync: false, maxLength: maxBytes });
  let dropped = 0;
  let reported = 0;
  let lastReport = -Infinity;
  let timer: NodeJS.Timeout | undefined;
  let reporting = false;
  let reportDropped = false;

  const schedule = () => {
    if (timer) return;
    timer = setTimeout(report, Math.max(reportAfterMs, lastReport + reportIntervalMs - Date.now()));
    timer.unref();
  };
  const report = () => {
    timer = undefined;
    if (dropped === reported) return;
    lastReport = Date.now();
    const total = dropped;
    const line = JSON.stringify({
      level: 40,
      time: lastReport,
      msg: `the log could not keep up: ${total - reported} lines dropped`,
      dropped: total - reported,
      droppedSinceStart: total,
    });
    reporting = true;
    reportDropped = false;
    stream.write(`${line}\n`);
    reporting = false;
    // A report that did not fit either is tried again later (the drop handler scheduled it).
    if (!reportDropped) reported = total;
  };
  stream.on('drop', (data: string | Buffer) => {
    if (reporting) reportDropped = true;
    else dropped += countLines(data);
    schedule();
  });
  return { stream, dropped: () => dropped };
}

function countLines(data: string | Buffer): number {
  const text = typeof data === 'string' ? data : data.toString('utf8');
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines += 1;
  return Math.max(1, lines);
}
