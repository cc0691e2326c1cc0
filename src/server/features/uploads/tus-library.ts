// @tus/server's Server, loaded with the first tus request rather than at start (tus-server.ts): it brings
// Node's fetch (undici) and web streams, which an idle server need not hold (docs/decisions/007).
import { Server } from '@tus/server';
import { tusClientMessage } from './tus-errors.js';

const isJsonMessage = (body: string) => body.startsWith('{"message":');

/**
 * Every error answer @tus/server writes goes through Server.write: the ones its handlers throw (mapped by
 * onResponseError first) and the ones it writes itself (412 without Tus-Resumable, 400 for an invalid
 * header). Here each becomes `{ "message" }` JSON in product words, as every other error of the API.
 */
export class JsonErrorTusServer extends Server {
  override write(...[context, headers, status, body = '']: Parameters<Server['write']>) {
    if (status >= 400) {
      headers.set('Content-Type', 'application/json; charset=utf-8');
      if (!isJsonMessage(body)) body = JSON.stringify({ message: tusClientMessage(status, body) });
    }
    return super.write(context, headers, status, body);
  }
}
