import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** A request slower than this is logged at `info` whatever it was. */
export const SLOW_REQUEST_MS = 1_000;

/**
 * One structured line per request instead of two: method, path, status, time. Headers and bodies
 * are never logged, so neither a session cookie nor a password can reach the log.
 *
 * At `info`, the line is written for what an operator looks for: every change (any method but GET and HEAD),
 * every 4xx and 5xx, and any request slower than a second. A successful read is logged at `debug`: a line for
 * each would cost a busy read route a good part of its throughput, and the reverse proxy in front of a
 * deployment keeps the access log (README).
 */
export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ method: request.method, url: request.url }, 'incoming request');
  }

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const responseTime = Math.round(reply.elapsedTime * 100) / 100;
    const read = request.method === 'GET' || request.method === 'HEAD';
    const routine = !error && read && reply.statusCode < 400 && responseTime < SLOW_REQUEST_MS;
    if (routine && reply.log.level !== 'debug' && reply.log.level !== 'trace') return;
    const line = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      responseTime,
      userId: request.user?.id,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (routine) reply.log.debug(line, 'request completed');
    else if (reply.statusCode >= 500) reply.log.error(line, 'request completed');
    else reply.log.info(line, 'request completed');
  }
}
