// Every response an API test gets is checked against the app's own OpenAPI document: its route,
// method and status must be documented, and a JSON body must match the documented schema (ajv, JSON Schema
// 2020-12 as OpenAPI 3.1 uses). A mismatch is collected here and fails the test that caused it
// (api-contract-check.ts, a setup file of the API project).
import type { ServerResponse } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { API_PATHS } from '#server/plugins/api-contract.js';
import { DOCS_PREFIX, OPENAPI_PATH, openApiPath } from '#server/plugins/api-docs.js';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

interface Operation {
  responses: Record<string, { content?: Record<string, unknown> }>;
}
type Document = { paths: Record<string, Record<string, Operation>> };

interface Exchange {
  method: string;
  /** The route's URL as declared (`/api/videos/:id`); undefined when no route matched (the 404 handler). */
  route: string | undefined;
  url: string;
  status: number;
  headers: Record<string, unknown>;
  body: Buffer;
}

const violations: string[] = [];
let checked = 0;

/** The mismatches found since the last call (the setup file fails the test with them). */
export function takeContractViolations(): string[] {
  return violations.splice(0);
}

/** How many responses were checked in this worker so far. */
export function contractChecks(): number {
  return checked;
}

class ContractChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: Document) {
    addFormats(this.ajv);
    this.ajv.addFormat('binary', true);
    this.ajv.addSchema(document as object, 'openapi');
  }

  private validator(pointer: string[]): ValidateFunction {
    const key = pointer.join('\u0000');
    let validate = this.validators.get(key);
    if (!validate) {
      const fragment = pointer
        .map((token) => encodeURIComponent(token.replace(/~/g, '~0').replace(/\//g, '~1')))
        .join('/');
      validate = this.ajv.compile({ $ref: `openapi#/${fragment}` });
      this.validators.set(key, validate);
    }
    return validate;
  }

  /** What is wrong with one response, or null. */
  check(exchange: Exchange): string | null {
    const { method, route, status } = exchange;
    const where = `${method} ${exchange.url.split('?')[0]} → ${status}`;
    const type = String(exchange.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim();
    const text = decoded(exchange).toString('utf8');
    const isJson = type === 'application/json' && text.length > 0;
    if (route === undefined) {
      // No route: the not-found handler (and the errors before routing). Not an operation, still `{ message }`.
      if (!isJson) return null;
      const validate = this.validator(['components', 'schemas', 'Message']);
      return validate(JSON.parse(text)) ? null : `${where}: not a { message }: ${text.slice(0, 200)}`;
    }
    if (!API_PATHS.some((prefix) => route.startsWith(prefix))) return null;
    if (route.startsWith(DOCS_PREFIX) || route === OPENAPI_PATH) return null;
    const path = openApiPath(route);
    const item = this.document.paths[path];
    if (!item) return `${where}: the route ${method} ${path} is not in the API document`;
    const verb = method.toLowerCase();
    const operationVerb = item[verb] ? verb : verb === 'head' && item.get ? 'get' : undefined;
    if (!operationVerb) return `${where}: ${method} ${path} is not in the API document`;
    const responses = item[operationVerb]!.responses;
    const code = String(status);
    const documented = responses[code] ? code : responses[`${code[0]}XX`] ? `${code[0]}XX` : undefined;
    if (!documented) return `${where}: status ${status} is not documented for ${method} ${path}`;
    if (method === 'HEAD' || text.length === 0) return null;
    const content = responses[documented]!.content;
    if (!isJson) {
      if (content && type in content) return null;
      return `${where}: a ${type || 'body without a type'} is not documented for ${method} ${path} ${status}`;
    }
    if (!content?.['application/json'])
      return `${where}: no JSON is documented for ${method} ${path} ${status}`;
    const validate = this.validator([
      'paths',
      path,
      operationVerb,
      'responses',
      documented,
      'content',
      'application/json',
      'schema',
    ]);
    if (validate(JSON.parse(text))) return null;
    return `${where}: the body does not match the document: ${this.ajv.errorsText(validate.errors)}; body: ${text.slice(0, 300)}`;
  }
}

function decoded({ headers, body }: Exchange): Buffer {
  const encoding = headers['content-encoding'];
  // A compressed stream (the API reference's files) is seen here without its bytes.
  if (body.length === 0) return body;
  if (encoding === 'br') return brotliDecompressSync(body);
  if (encoding === 'gzip') return gunzipSync(body);
  return body;
}

const asBuffer = (payload: unknown): Buffer | null =>
  Buffer.isBuffer(payload)
    ? payload
    : typeof payload === 'string'
      ? Buffer.from(payload)
      : payload == null
        ? Buffer.alloc(0)
        : null;

/**
 * Installs the check on an app before it is ready: each response is checked as it is sent (inject or a real
 * socket); one whose route wrote to the socket itself (tus's hijacked requests) is checked when inject
 * returns it.
 */
export function checkAgainstApiDocument(app: FastifyInstance): void {
  let checker: Promise<ContractChecker> | undefined;
  const checkerOf = () =>
    (checker ??= app.apiDocument().then((document) => new ContractChecker(document as unknown as Document)));
  const routes = new WeakMap<ServerResponse, { method: string; route: string | undefined; url: string }>();
  const done = new WeakSet<ServerResponse>();
  const record = async (exchange: Exchange) => {
    checked += 1;
    const problem = (await checkerOf()).check(exchange);
    if (problem) violations.push(problem);
  };

  app.addHook('onRequest', async (request, reply) => {
    routes.set(reply.raw, { method: request.method, route: request.routeOptions.url, url: request.url });
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const body = asBuffer(payload);
    done.add(reply.raw);
    const seen = { method: request.method, route: request.routeOptions.url, url: request.url };
    // A stream (a media file): its status and type are what can be checked.
    await record({
      ...seen,
      status: reply.statusCode,
      headers: reply.getHeaders(),
      body: body ?? Buffer.alloc(0),
    });
    return payload;
  });

  const inject = app.inject.bind(app) as (options: unknown) => Promise<LightMyRequestResponse>;
  (app as unknown as { inject: typeof inject }).inject = async (options: unknown) => {
    const response = await inject(options);
    const raw = response.raw.res;
    const seen = routes.get(raw);
    if (seen && !done.has(raw)) {
      await record({
        ...seen,
        status: response.statusCode,
        headers: response.headers,
        body: response.rawPayload,
      });
    }
    return response;
  };
}
