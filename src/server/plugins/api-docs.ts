// The OpenAPI 3.1 document of the API, generated from the routes' zod schemas, at
// GET /api/openapi.json, and Swagger UI reading it at /api/docs (docs/decisions/015).
import type { FastifySwaggerOptions, SwaggerOptions } from '@fastify/swagger';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { createJsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import { API_PATHS } from './api-contract.js';
import { registerApiReference } from './api-reference.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The document's description of a multipart body, which the route reads part by part itself. */
    multipartBody?: ZodType;
  }
  interface FastifyInstance {
    /** The OpenAPI document (what GET /api/openapi.json answers), generated at the first call. */
    apiDocument(): Promise<Record<string, unknown>>;
  }
}

export const OPENAPI_PATH = '/api/openapi.json';
/** The reference page and its files: pages, so they get the pages' headers (security-headers.ts). */
export const DOCS_PREFIX = '/api/docs';

const DESCRIPTION = `PickReel's HTTP API: what the web client calls. Requests and answers are JSON unless a route says
otherwise; every error is \`{ "message": "…" }\` with its status, a sentence to show as it is.

Sign in with POST /api/login or POST /api/register: the answer sets the session cookie (\`pickreel_sid\`,
HttpOnly, SameSite=Lax), which every later request sends. A request that changes something must come from
the site itself (Sec-Fetch-Site, else Origin or Referer): another site's gets a 403.`;

const TAGS = [
  { name: 'Accounts', description: 'Registration, sign-in and the signed-in user.' },
  { name: 'Videos', description: 'The catalog, a video, and what its capper and viewers do with it.' },
  {
    name: 'Uploads',
    description: 'New videos: files up to 50 MB and links in one request, larger files over tus.',
  },
  { name: 'Payments', description: 'Buying a pick: the card provider is Stripe, or the built-in sandbox.' },
  { name: 'Purchases', description: "A buyer's purchases and a capper's sales." },
  {
    name: 'Earnings',
    description: "A capper's earnings, analytics and payout requests; an admin's decisions on them.",
  },
  {
    name: 'Admin',
    description: 'Moderation: users, videos, bonuses and the audit log. Admins only (else 401/403).',
  },
  { name: 'Media', description: 'Thumbnails, videos (MP4, HLS) and originals, with HTTP ranges.' },
  { name: 'Service', description: 'Health.' },
];

/** What each status means wherever a route declares it; the `{ message }` says the rest. */
const STATUS_MEANING: Record<string, string> = {
  '200': 'OK.',
  '201': 'Created.',
  '204': 'Done; no content.',
  '206': 'The byte range asked for (Range).',
  '304': 'Not modified: the copy named by If-None-Match is current.',
  '400':
    'The request cannot be taken: a field, an id, a header or the body is not valid (the message says which).',
  '401': 'Not signed in.',
  '402': 'The payment has not succeeded (declined, or not confirmed yet).',
  '403': 'Not allowed: not yours, not an admin, or a request from another site.',
  '404': 'Not found (or not visible to this user).',
  '409': 'Conflicts with how things stand now (the message says what to do).',
  '413': 'The body or the file is too large.',
  '415': 'Unsupported content type.',
  '416': 'Range not satisfiable.',
  '429': 'Too many requests: try again after Retry-After seconds.',
  '500': 'Server error. Please try again later.',
};

type JsonSchema = Record<string, unknown>;

/**
 * A route's path as the document writes it: `:id` is `{id}` (as @fastify/swagger writes it), and a trailing
 * wildcard (`/media/*`) is `{path}`. The API tests find a response's operation with it.
 */
export function openApiPath(url: string): string {
  return url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{path}');
}

const WILDCARD_PARAMS = {
  type: 'object',
  properties: { path: { type: 'string', description: 'The rest of the path (slashes included).' } },
  required: ['path'],
};

/**
 * A wildcard route's parameters as the document writes them: its named ones (described by the route's params
 * schema where it has one) and the rest of the path as `path`.
 */
function wildcardParams(url: string, params: JsonSchema | undefined): JsonSchema {
  const described = (params?.properties ?? {}) as Record<string, JsonSchema>;
  const names = [...url.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  return {
    ...WILDCARD_PARAMS,
    properties: {
      ...Object.fromEntries(names.map((name) => [name, described[name] ?? { type: 'string' }])),
      ...WILDCARD_PARAMS.properties,
    },
    required: [...names, 'path'],
  };
}

/** A route's responses as OpenAPI response objects, each with what its status means. */
function describeResponses(response: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const described: Record<string, JsonSchema> = {};
  for (const [status, schema] of Object.entries(response)) {
    if ('content' in schema) {
      described[status] = schema;
      continue;
    }
    const { description, ...rest } = schema;
    const text = (typeof description === 'string' && description) || STATUS_MEANING[status] || 'Answer.';
    described[status] =
      rest.type === 'null'
        ? { type: 'null', description: text }
        : { description: text, content: { 'application/json': { schema: rest } } };
  }
  return described;
}

type Document = ReturnType<typeof jsonSchemaTransformObject>;

/** Components only a request body could refer to (`…Input`) are left out when nothing does. */
function withoutUnusedInputs(document: Document): Document {
  const { components, ...rest } = document as { components?: { schemas?: Record<string, unknown> } };
  const schemas = components?.schemas;
  if (!schemas) return document;
  const referenced = JSON.stringify(rest);
  for (const name of Object.keys(schemas)) {
    if (name.endsWith('Input') && !referenced.includes(`"#/components/schemas/${name}"`))
      delete schemas[name];
  }
  return document;
}

export interface ApiDocsOptions {
  version: string;
  /** Path items described by hand (the tus endpoint), merged with the routes'. */
  paths: Record<string, object>;
}

/**
 * Runs @fastify/swagger over the routes recorded at start, once, and returns its document. The plugin is
 * loaded here, at the first call, not at start: it (with the YAML library it loads for a format we do not
 * serve) would hold heap for good in every server, most of which never serves the document. It runs
 * on a throwaway Fastify instance given the same routes (method, URL, schema, config), closed after.
 */
async function generateDocument(options: SwaggerOptions, routes: readonly RouteOptions[]): Promise<Document> {
  const { default: swagger } = await import('@fastify/swagger');
  const scratch = Fastify({ logger: false, exposeHeadRoutes: false });
  // Its schemas are only read for the document: nothing validates or serialises with them here.
  scratch.setValidatorCompiler(() => () => true);
  scratch.setSerializerCompiler(() => (data) => JSON.stringify(data));
  try {
    await scratch.register(swagger, options);
    for (const { method, url, schema, config } of routes) {
      scratch.route({ method, url, schema, config, handler: async () => null });
    }
    await scratch.ready();
    return scratch.swagger() as Document;
  } finally {
    await scratch.close();
  }
}

/**
 * Registered before the routes: records the API's routes as they are added (references to their options,
 * which later hooks still complete); the document is generated from them at its first request and kept
 * as its JSON bytes.
 */
export function registerApiDocs(app: FastifyInstance, options: ApiDocsOptions): void {
  const handWritten = new Set(Object.keys(options.paths).map((p) => p.replace(/\{(\w+)\}/g, ':$1')));
  // Not the API (pages, files, robots.txt), the documentation itself, or described by hand.
  const documented = (url: string) =>
    API_PATHS.some((prefix) => url.startsWith(prefix)) &&
    !url.startsWith(DOCS_PREFIX) &&
    url !== OPENAPI_PATH &&
    !handWritten.has(url);

  let recorded: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    // Fastify's own HEAD twins of GET routes are left out, as @fastify/swagger leaves them out.
    if (route.method !== 'HEAD' && documented(route.url)) recorded.push(route);
  });

  const swaggerOptions = (): FastifySwaggerOptions & SwaggerOptions => {
    const zodTransform = createJsonSchemaTransform({ skipList: [] });
    return {
      openapi: {
        openapi: '3.1.0',
        info: { title: 'PickReel API', version: options.version, description: DESCRIPTION },
        tags: TAGS,
        paths: options.paths,
        components: {
          securitySchemes: {
            session: {
              type: 'apiKey',
              in: 'cookie',
              name: 'pickreel_sid',
              description: 'The session cookie.',
            },
          },
        },
      },
      transform(input) {
        const { url } = input;
        if (!documented(url)) return { schema: { hide: true }, url };
        const multipartBody = input.route.config?.multipartBody;
        const result = zodTransform(
          multipartBody
            ? {
                ...input,
                schema: { ...input.schema, body: multipartBody, consumes: ['multipart/form-data'] },
              }
            : input,
        );
        const schema = result.schema as
          { response?: Record<string, JsonSchema>; params?: JsonSchema } | undefined;
        if (schema?.response) schema.response = describeResponses(schema.response);
        if (!url.endsWith('*')) return result;
        return { schema: { ...schema, params: wildcardParams(url, schema?.params) }, url: openApiPath(url) };
      },
      transformObject: (documentObject) => withoutUnusedInputs(jsonSchemaTransformObject(documentObject)),
    };
  };

  // The document as JSON bytes once made (one generation for concurrent first requests); the recorded
  // routes are let go then.
  let bytes: Promise<Buffer> | undefined;
  const documentBytes = (): Promise<Buffer> => {
    bytes ??= generateDocument(swaggerOptions(), recorded).then((document) => {
      recorded = [];
      return Buffer.from(JSON.stringify(document));
    });
    return bytes;
  };
  app.decorate(
    'apiDocument',
    async () => JSON.parse((await documentBytes()).toString()) as Record<string, unknown>,
  );

  registerApiReference(app, { prefix: DOCS_PREFIX, documentUrl: OPENAPI_PATH, title: 'PickReel API' });

  app.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header('cache-control', 'no-cache')
      .type('application/json; charset=utf-8')
      .send(await documentBytes()),
  );
}
