import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../package-root.js';

/**
 * For tests: Node's flags for the server process, as `npm start` and the deployment's units start it,
 * read from scripts/server-node-flags.mjs (the one list, also used by `npm run dev` and the bench), for
 * the programs that start a server the way a deployment does (tests/deploy).
 */
export async function serverNodeFlags(): Promise<readonly string[]> {
  const url = pathToFileURL(path.join(packageRoot(), 'scripts/server-node-flags.mjs')).href;
  const module = (await import(url)) as { SERVER_NODE_FLAGS: readonly string[] };
  return module.SERVER_NODE_FLAGS;
}
