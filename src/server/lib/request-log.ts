import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One structured line per request instead of two: method, path, status, time. Headers and bodies
 * are never logged, so neither a session cookie nor a password can reach the log.
 */
export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ method: request.method, url: request.url }, 'incoming request');
  }

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 100) / 100,
      userId: request.user?.id,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
