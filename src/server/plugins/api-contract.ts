// One API contract: every route declares its responses with the zod schemas of src/common/schemas;
// the server serialises through them, so a field they do not declare never leaves it, and the OpenAPI
// document (api-docs.ts) and the client's types come from the same schemas (docs/decisions/015).
import type { FastifyInstance, FastifySerializerCompiler, RouteOptions } from 'fastify';
import fastJson from 'fast-json-stringify';
import { z } from 'zod';
import { MessageSchema } from '#common/schemas/api.js';

type Serialize = (data: unknown) => string;

/** No metadata: every schema inline (no `$ref`), which is what fast-json-stringify compiles best. */
const INLINE = z.registry<Record<string, unknown>>();
const compiled = new WeakMap<z.ZodType, Serialize>();

type Json = Record<string, unknown>;

/**
 * `anyOf: [X, { type: 'null' }]` (zod's `.nullable()` of an object or a formatted string) as X with
 * `type: [X's type, 'null']`: fast-json-stringify picks an anyOf branch by validating the value against
 * each, which made a purchases page of 1,000 videos twice as slow to write as JSON.stringify.
 */
function nullableAsTypes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(nullableAsTypes);
  if (value === null || typeof value !== 'object') return value;
  const schema = Object.fromEntries(
    Object.entries(value).map(([key, child]) => [key, nullableAsTypes(child)]),
  ) as Json;
  const anyOf = schema.anyOf as Json[] | undefined;
  if (anyOf?.length === 2) {
    const other = anyOf.find((branch) => branch.type !== 'null');
    if (other && anyOf.some((branch) => branch.type === 'null') && typeof other.type === 'string') {
      const { anyOf: _anyOf, ...rest } = schema;
      return { ...rest, ...other, type: [other.type, 'null'] };
    }
  }
  return schema;
}

/** The JSON Schema of what a zod schema outputs (draft-07, fast-json-stringify's dialect). */
export function outputJsonSchema(schema: z.ZodType): Json {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
    io: 'output',
    target: 'draft-7',
    metadata: INLINE,
    unrepresentable: 'any',
    reused: 'inline',
  }) as Json;
  return nullableAsTypes(json) as Json;
}

/**
 * A response's JSON from its schema, compiled once per schema by fast-json-stringify (Fastify's own
 * serializer): only declared properties are written. It does not validate: a mismatch in type is
 * coerced (a null string becomes ""), which the API tests catch (createResponseSerializerCompiler's
 * `checkData`, and the suite's check of every response against the OpenAPI document).
 */
export function responseSerializer(schema: z.ZodType): Serialize {
  let serialize = compiled.get(schema);
  if (!serialize) {
    // Compiled at its first response, not at start: a cold start does not wait for ~40 routes' serializers.
    let compiledOnce: Serialize | undefined;
    serialize = (data) => (compiledOnce ??= fastJson(outputJsonSchema(schema)) as Serialize)(data);
    compiled.set(schema, serialize);
  }
  return serialize;
}

export class ResponseShapeError extends Error {
  constructor(method: string, url: string, status: string, issues: z.core.$ZodIssue[]) {
    super(
      `${method} ${url} ${status}: the response does not match its schema: ${z.prettifyError({ issues } as z.ZodError)}`,
    );
    this.name = 'ResponseShapeError';
  }
}

/**
 * Fastify's serializer compiler for the routes' zod response schemas. `checkData` (the API tests) also
 * parses every response with its schema before writing it, and fails it when it does not match: a wrong
 * type would otherwise be coerced silently, not caught.
 */
export function createResponseSerializerCompiler(
  options: { checkData?: boolean } = {},
): FastifySerializerCompiler<unknown> {
  return ({ schema, method, url, httpStatus }) => {
    if (!(schema instanceof z.ZodType)) return fastJson(schema as object) as Serialize;
    const serialize = responseSerializer(schema);
    if (!options.checkData) return serialize;
    return (data) => {
      const result = schema.safeParse(data);
      if (!result.success) throw new ResponseShapeError(method, url, String(httpStatus), result.error.issues);
      return serialize(data);
    };
  };
}

/** Routes under these are the API: documented, with the error answers every route may give. */
export const API_PATHS = ['/api/', '/media/'];
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** `{ 401: MessageSchema, ... }`: the `{ message }` answers a route gives besides the ones every route may. */
export function errorResponses<const Code extends number>(
  ...codes: Code[]
): Record<Code, typeof MessageSchema> {
  return Object.fromEntries(codes.map((code) => [code, MessageSchema])) as Record<Code, typeof MessageSchema>;
}

/**
 * What any API route may answer, whatever it does (error-handler.ts): 400 for input it cannot take (a NUL
 * anywhere, a malformed id or field), 500 when the server fails; a request that changes something also 403
 * when it comes from another site (csrf.ts), 413 and 415 for a body too large or of another type.
 */
function commonErrors(method: string, url: string): number[] {
  const codes = [400, 500];
  // Exempt from the CSRF check (app.ts): the webhook and RFC 8058's one-click unsubscribe.
  const crossSiteRefused = url !== '/api/stripe/webhook' && url !== '/api/unsubscribe';
  if (UNSAFE_METHODS.has(method) && crossSiteRefused) codes.push(403, 413, 415);
  else if (UNSAFE_METHODS.has(method)) codes.push(413, 415);
  return codes;
}

function withCommonErrors(route: RouteOptions): void {
  const schema = (route.schema ??= {}) as { hide?: boolean; response?: Record<string, unknown> };
  if (schema.hide) return;
  const response = (schema.response ??= {});
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  for (const method of methods) {
    for (const code of commonErrors(method, route.url)) response[code] ??= MessageSchema;
  }
}

/**
 * Registered before the routes: every API route documents the errors every route may give, and each
 * feature's routes carry its tag in the document (`tagRoutes`).
 */
export function registerApiContract(app: FastifyInstance, options: { checkData?: boolean } = {}): void {
  app.setSerializerCompiler(createResponseSerializerCompiler(options));
  app.addHook('onRoute', (route) => {
    if (API_PATHS.some((prefix) => route.url.startsWith(prefix))) withCommonErrors(route);
  });
}

/** Every route this plugin (and what it registers) declares is listed under `tag` in the document. */
export function tagRoutes(app: FastifyInstance, tag: string): void {
  app.addHook('onRoute', (route) => {
    const schema = (route.schema ??= {}) as { tags?: string[] };
    schema.tags ??= [tag];
  });
}
