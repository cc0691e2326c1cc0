// The uploads feature's public entry: the upload routes and the tus endpoint's OpenAPI description.
export { registerUploads } from './plugin.js';
export { tusOpenApiPaths } from './tus-openapi.js';
export { tusChunkBytes } from './tus-store.js';
