import { describe, expect, it } from 'vitest';
import { authPath, nextFromSearch, safeNextPath } from './auth-redirect';

describe('safeNextPath', () => {
  it.each([
    ['/checkout/12', '/checkout/12'],
    ['/upload', '/upload'],
    ['/dashboard?tab=uploads', '/dashboard?tab=uploads'],
    ['/videos?q=NBA%20parlay%20%26%20props', '/videos?q=NBA%20parlay%20%26%20props'],
    ['/video/7#selections', '/video/7#selections'],
    // The parser's own normalisation, still on this site.
    ['/video/../checkout/3', '/checkout/3'],
  ])('keeps the same-site path %j', (raw, expected) => {
    expect(safeNextPath(raw)).toBe(expected);
  });

  it.each([
    // absolute URLs and schemes
    'https://evil.example/checkout/1',
    'http://evil.example',
    'HTTPS://evil.example',
    'javascript:alert(1)',
    'JavaScript:alert(document.cookie)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'mailto:someone@evil.example',
    // protocol-relative
    '//evil.example',
    '//evil.example/checkout/1',
    '///evil.example',
    // backslashes, which browsers read as slashes
    '/\\evil.example',
    '\\\\evil.example',
    '\\/evil.example',
    '/checkout/1\\..\\..\\/evil.example',
    // characters the parser drops (tab, newline), leaving '//'
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r/evil.example',
    '/\u0000/evil.example',
    // dot segments that resolve to '//'
    '/..//evil.example',
    '/.//evil.example',
    // encoded variants
    '%2F%2Fevil.example',
    '/%2F/evil.example',
    '/%2F%2Fevil.example',
    '/%5Cevil.example',
    '/%5cevil.example',
    '/%09/evil.example',
    '/%252F%252Fevil.example',
    '/%25252F/evil.example',
    '%2Fcheckout%2F1',
    'https%3A%2F%2Fevil.example',
    // not a path at all, or malformed
    'checkout/12',
    '',
    '/%E0%A4%A',
    `/${'a'.repeat(3000)}`,
    // /auth itself would go round in a circle; '/' is the default anyway
    '/auth',
    '/auth?next=/checkout/1',
    '/',
  ])('refuses %j', (raw) => {
    expect(safeNextPath(raw)).toBeNull();
  });

  it('refuses missing values', () => {
    expect(safeNextPath(null)).toBeNull();
    expect(safeNextPath(undefined)).toBeNull();
  });
});

describe('nextFromSearch', () => {
  it('reads next from the query string, decoded once, and refuses what decodes to another site', () => {
    expect(nextFromSearch('?next=/checkout/12')).toBe('/checkout/12');
    expect(nextFromSearch('tab=register&next=%2Fupload')).toBe('/upload');
    expect(nextFromSearch('next=/videos%3Fq%3DLakers')).toBe('/videos?q=Lakers');
    expect(nextFromSearch('next=%2F%2Fevil.example')).toBeNull();
    expect(nextFromSearch('next=https%3A%2F%2Fevil.example')).toBeNull();
    expect(nextFromSearch('next=%2F%5Cevil.example')).toBeNull();
    expect(nextFromSearch('next=javascript%3Aalert(1)')).toBeNull();
    expect(nextFromSearch('tab=register')).toBeNull();
  });
});

describe('authPath', () => {
  it('carries a safe next readably, and drops an unsafe one', () => {
    expect(authPath()).toBe('/auth');
    expect(authPath({ next: '/checkout/12' })).toBe('/auth?next=/checkout/12');
    expect(authPath({ tab: 'register', next: '/upload' })).toBe('/auth?tab=register&next=/upload');
    expect(authPath({ tab: 'register' })).toBe('/auth?tab=register');
    expect(authPath({ next: '/videos?q=a&b' })).toBe('/auth?next=/videos%3Fq%3Da%26b');
    expect(authPath({ next: '//evil.example' })).toBe('/auth');
    expect(authPath({ next: '/' })).toBe('/auth');
  });

  it('round-trips through the query string', () => {
    for (const next of ['/checkout/12', '/videos?q=NBA%20parlay%20%26%20props&sort=newest', '/dashboard#x']) {
      const search = authPath({ next }).split('?')[1] ?? '';
      expect(nextFromSearch(search)).toBe(next);
    }
  });
});
