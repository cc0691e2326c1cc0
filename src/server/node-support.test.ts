// Which Node.js runs PickReel (docs/decisions/016-supported-node-versions.md). cookie@2 and
// content-disposition@3 are ES modules that declare node >= 22, yet light-my-request (inside Fastify) and
// @fastify/static load them with require() at start. Node does that since 20.19 and 22.12 (require(esm)).
// package.json's engines claims those lines and the LTS lines after them that CI tests (.ci/run: 22, 24 and
// 26 run the unit and API suites); on an older Node these tests fail as the server would.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Cookie from 'cookie';
import type * as ContentDisposition from 'content-disposition';
import { describe, expect, it } from 'vitest';

const requireCjs = createRequire(import.meta.url);
const SUPPORTED = '^20.19.0 || ^22.12.0 || ^24.0.0 || ^26.0.0';

/** `SUPPORTED`, spelled out: 20.19 and later 20s, 22.12 and later 22s, every 24 and 26. */
function isSupported(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return (major === 20 && minor >= 19) || (major === 22 && minor >= 12) || major === 24 || major === 26;
}

describe('supported Node versions', () => {
  it('package.json claims the versions this file checks, and this Node is one of them', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      engines: { node: string };
    };
    expect(pkg.engines.node).toBe(SUPPORTED);
    expect(['20.18.3', '21.7.3', '22.11.0', '23.11.1', '25.9.0', '27.0.0'].filter(isSupported)).toEqual([]);
    expect(
      ['20.19.0', '20.20.2', '22.12.0', '22.23.3', '24.0.0', '24.21.0', '26.12.1'].every(isSupported),
    ).toBe(true);
    expect(isSupported(process.versions.node), process.versions.node).toBe(true);
  });

  it('loads the ES-module-only cookie and content-disposition through require(), as the plugins do', () => {
    const cookie = requireCjs('cookie') as typeof Cookie;
    expect({ ...cookie.parseCookie('sid=abc; theme=dark') }).toEqual({ sid: 'abc', theme: 'dark' });
    expect(cookie.stringifySetCookie({ name: 'sid', value: 'a b', httpOnly: true })).toBe(
      'sid=a%20b; HttpOnly',
    );
    const disposition = requireCjs('content-disposition') as typeof ContentDisposition;
    expect(disposition.create('pick.mov')).toBe('attachment; filename=pick.mov');
    // The packages that require() them, loaded as the server loads them.
    expect(() => requireCjs('light-my-request')).not.toThrow();
    expect(() => requireCjs('@fastify/static')).not.toThrow();
  });
});
