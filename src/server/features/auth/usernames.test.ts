import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '#server/lib/package-root.js';
import { clientBucket } from './throttle.js';
import { usernameKey, usernameSkeleton } from './usernames.js';

describe('usernameKey (NFKC + case fold)', () => {
  it('gives one key to the spellings of one name', () => {
    for (const spelling of ['capper', 'CAPPER', 'Capper', 'ｃａｐｐｅｒ', 'ＣＡＰＰＥＲ']) {
      expect(usernameKey(spelling)).toBe('capper');
    }
    expect(usernameKey('Straße')).toBe(usernameKey('STRASSE'));
  });

  it('keeps different letters apart (look-alikes are the skeleton’s job)', () => {
    expect(usernameKey('cаpper')).not.toBe('capper'); // Cyrillic а
  });
});

describe('usernameSkeleton (Unicode TR39, case-insensitive)', () => {
  it.each([
    ['cаpper', 'Cyrillic а'],
    ['caρper', 'Greek ρ'],
    ['ｃａｐｐｅｒ', 'full-width'],
    ['Cаpper', 'capital C, Cyrillic а'],
    ['CAPPER', 'upper case'],
    ['𝐜𝐚𝐩𝐩𝐞𝐫', 'mathematical bold'],
  ])('%s (%s) looks like capper', (name) => {
    expect(usernameSkeleton(name)).toBe(usernameSkeleton('capper'));
  });

  it('catches look-alikes that cross case or split letters', () => {
    expect(usernameSkeleton('Ilya')).toBe(usernameSkeleton('llya')); // capital I and small l
    expect(usernameSkeleton('rnike')).toBe(usernameSkeleton('mike')); // r + n and m
    expect(usernameSkeleton('b0b')).toBe(usernameSkeleton('bob')); // zero and o
  });

  it('keeps names that merely resemble each other apart', () => {
    expect(usernameSkeleton('capybara')).not.toBe(usernameSkeleton('capper'));
    expect(usernameSkeleton('cappers')).not.toBe(usernameSkeleton('capper'));
  });
});

describe('clientBucket', () => {
  it('counts an IPv4 address alone and an IPv6 address by its /64', () => {
    expect(clientBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(clientBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientBucket('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientBucket('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(clientBucket('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientBucket('::1')).toBe('0:0:0:0::/64');
  });
});

describe('the confusables table', () => {
  it('is loaded with the first skeleton, not with the module (an idle server does not keep it)', () => {
    // A child process: this worker's require cache may hold it already from another test file.
    const module = JSON.stringify(path.join(packageRoot(), 'src/server/features/auth/usernames.ts'));
    const script = [
      "import { createRequire } from 'node:module';",
      `const { usernameKey, usernameSkeleton } = await import(${module});`,
      "const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('/unhomoglyph/'));",
      "console.log(JSON.stringify({ atImport: loaded(), key: usernameKey('Capper') }));",
      "const same = usernameSkeleton('Ilya') === usernameSkeleton('llya');",
      'console.log(JSON.stringify({ afterSkeleton: loaded(), same }));',
    ].join('\n');
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: packageRoot(),
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    const [first, second] = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    expect(first).toEqual({ atImport: false, key: 'capper' });
    expect(second).toEqual({ afterSkeleton: true, same: true });
  });
});
