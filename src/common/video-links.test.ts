import { describe, expect, it } from 'vitest';
import {
  ACCEPTED_VIDEO_URL_FORMATS,
  ACCEPTED_VIDEO_URL_FORMATS_TEXT,
  EMBED_ORIGINS,
  EXTERNAL_VIDEO_URL_MAX_LENGTH,
  INVALID_URL_MESSAGE,
  PLATFORM_LABELS,
  URL_CREDENTIALS_MESSAGE,
  URL_TOO_LONG_MESSAGE,
  VIDEO_PLATFORMS,
  detectPlatform,
  embedUrl,
  externalPageUrl,
  invalidSiteUrlMessage,
  linkThumbnailUrl,
  validateExternalVideoUrl,
  type VideoLink,
} from './video-links.js';
import { linkSiteName } from './video-platforms.js';

const YT = 'dQw4w9WgXcQ'; // 11 characters
const YT_SYMBOLS = 'a-b_C1d2E3f'; // 11 characters using - and _

describe('detectPlatform', () => {
  describe('YouTube', () => {
    it.each([
      [`https://www.youtube.com/watch?v=${YT}`, YT],
      [`https://youtube.com/watch?v=${YT}`, YT],
      [`http://www.youtube.com/watch?v=${YT}`, YT],
      [`https://m.youtube.com/watch?v=${YT}`, YT],
      [`https://music.youtube.com/watch?v=${YT}`, YT],
      [`https://www.youtube.com/watch?v=${YT}&t=42s`, YT],
      [`https://www.youtube.com/watch?feature=share&v=${YT}&list=PL123&index=2`, YT],
      [`https://www.youtube.com/watch/?v=${YT}`, YT],
      [`https://www.youtube.com/watch?v=${YT}#t=10`, YT],
      [`https://www.youtube.com/watch?v=${YT_SYMBOLS}`, YT_SYMBOLS],
      [`https://www.youtube.com/embed/${YT}`, YT],
      [`https://www.youtube.com/embed/${YT}/`, YT],
      [`https://www.youtube.com/embed/${YT}?start=30&autoplay=1`, YT],
      [`https://www.youtube.com/shorts/${YT}`, YT],
      [`https://youtube.com/shorts/${YT}?feature=share`, YT],
      [`https://m.youtube.com/shorts/${YT}/`, YT],
      [`https://www.youtube.com/live/${YT}?si=abc`, YT],
      [`https://youtu.be/${YT}`, YT],
      [`https://youtu.be/${YT}/`, YT],
      [`https://youtu.be/${YT}?si=AbCdEf&t=5`, YT],
      [`https://www.youtube-nocookie.com/embed/${YT}`, YT],
      [`https://youtube-nocookie.com/embed/${YT}?rel=0`, YT],
      // mixed-case scheme and host, a trailing dot and surrounding whitespace are all the same link
      [`HTTPS://WWW.YouTube.COM/watch?v=${YT}`, YT],
      [`https://www.youtube.com./watch?v=${YT}`, YT],
      [`  https://youtu.be/${YT}  `, YT],
      [`https://www.youtube.com:443/watch?v=${YT}`, YT],
    ])('%s → youtube %s', (url, id) => {
      expect(detectPlatform(url)).toEqual({ platform: 'youtube', id });
    });

    it.each([
      ['id too short', `https://www.youtube.com/watch?v=${YT.slice(0, 10)}`],
      ['id too long', `https://www.youtube.com/watch?v=${YT}X`],
      ['id with a bad character', 'https://www.youtube.com/watch?v=dQw4w9WgX.Q'],
      ['missing v', 'https://www.youtube.com/watch'],
      ['empty v', 'https://www.youtube.com/watch?v='],
      ['id in another parameter', `https://www.youtube.com/watch?vid=${YT}`],
      ['embed without id', 'https://www.youtube.com/embed/'],
      ['embed id too short', 'https://www.youtube.com/embed/abc'],
      ['embed id too long', `https://www.youtube.com/embed/${YT}Z`],
      ['extra path after id', `https://www.youtube.com/embed/${YT}/extra`],
      ['shorts without id', 'https://www.youtube.com/shorts/'],
      ['shorts id too short', `https://www.youtube.com/shorts/${YT.slice(0, 10)}`],
      ['youtu.be id too short', `https://youtu.be/${YT.slice(0, 10)}`],
      ['youtu.be without id', 'https://youtu.be/'],
      ['youtu.be id too long', `https://youtu.be/${YT}XY`],
      ['youtu.be nested path', `https://youtu.be/watch/${YT}`],
      ['nocookie watch form', `https://www.youtube-nocookie.com/watch?v=${YT}`],
      ['channel page', 'https://www.youtube.com/@somecapper'],
      ['playlist', 'https://www.youtube.com/playlist?list=PL1234567890'],
      ['home page', 'https://www.youtube.com/'],
      ['upper-case path keyword', `https://www.youtube.com/EMBED/${YT}`],
    ])('%s is not a YouTube video: %s', (_case, url) => {
      expect(detectPlatform(url)).toEqual({ platform: 'unknown' });
    });
  });

  describe('Vimeo', () => {
    it.each<[string, VideoLink]>([
      ['https://vimeo.com/123456', { platform: 'vimeo', id: '123456' }],
      ['https://www.vimeo.com/123456/', { platform: 'vimeo', id: '123456' }],
      ['http://VIMEO.com/76979871?share=copy', { platform: 'vimeo', id: '76979871' }],
      ['https://vimeo.com/channels/staffpicks/123456', { platform: 'vimeo', id: '123456' }],
      ['https://vimeo.com/groups/shortfilms/videos/123456', { platform: 'vimeo', id: '123456' }],
      ['https://vimeo.com/showcase/9876/video/123456', { platform: 'vimeo', id: '123456' }],
      ['https://vimeo.com/album/9876/video/123456', { platform: 'vimeo', id: '123456' }],
      ['https://player.vimeo.com/video/123456', { platform: 'vimeo', id: '123456' }],
      ['https://player.vimeo.com/video/123456?autoplay=1', { platform: 'vimeo', id: '123456' }],
      // unlisted videos carry a privacy hash that the player needs
      ['https://vimeo.com/123456/abcdef0123', { platform: 'vimeo', id: '123456', hash: 'abcdef0123' }],
      [
        'https://player.vimeo.com/video/123456?h=abcdef0123&badge=0',
        { platform: 'vimeo', id: '123456', hash: 'abcdef0123' },
      ],
      // a hash that is not hex is ignored rather than passed on to the player
      ['https://player.vimeo.com/video/123456?h=<script>', { platform: 'vimeo', id: '123456' }],
    ])('%s', (url, link) => {
      expect(detectPlatform(url)).toEqual(link);
    });

    it.each([
      ['profile', 'https://vimeo.com/somecapper'],
      ['channel page', 'https://vimeo.com/channels/staffpicks'],
      ['non-numeric id', 'https://vimeo.com/12345a'],
      ['player without id', 'https://player.vimeo.com/video/'],
      ['home page', 'https://vimeo.com/'],
      ['lookalike host', 'https://vimeo.com.evil.net/123456'],
      ['lookalike host', 'https://notvimeo.com/123456'],
    ])('%s is not a Vimeo video: %s', (_case, url) => {
      expect(detectPlatform(url)).toEqual({ platform: 'unknown' });
    });
  });

  describe('Instagram', () => {
    it.each<[string, VideoLink]>([
      ['https://www.instagram.com/p/CxYz123AbC_/', { platform: 'instagram', kind: 'p', id: 'CxYz123AbC_' }],
      ['https://instagram.com/p/CxYz123AbC_', { platform: 'instagram', kind: 'p', id: 'CxYz123AbC_' }],
      [
        'https://www.instagram.com/p/CxYz123AbC_/?utm_source=ig_web_copy_link&igsh=abc',
        { platform: 'instagram', kind: 'p', id: 'CxYz123AbC_' },
      ],
      [
        'https://www.instagram.com/reel/C-abc123XYZ/',
        { platform: 'instagram', kind: 'reel', id: 'C-abc123XYZ' },
      ],
      [
        'https://www.instagram.com/reels/C-abc123XYZ/',
        { platform: 'instagram', kind: 'reel', id: 'C-abc123XYZ' },
      ],
      ['https://www.instagram.com/tv/B1a2b3c4d5e/', { platform: 'instagram', kind: 'p', id: 'B1a2b3c4d5e' }],
      [
        'https://m.instagram.com/reel/C-abc123XYZ',
        { platform: 'instagram', kind: 'reel', id: 'C-abc123XYZ' },
      ],
      [
        'https://www.instagram.com/some.capper/reel/C-abc123XYZ/',
        { platform: 'instagram', kind: 'reel', id: 'C-abc123XYZ' },
      ],
      ['HTTPS://WWW.INSTAGRAM.COM/p/AbC123/', { platform: 'instagram', kind: 'p', id: 'AbC123' }],
    ])('%s', (url, link) => {
      expect(detectPlatform(url)).toEqual(link);
    });

    it.each([
      ['profile', 'https://www.instagram.com/somecapper/'],
      ['post without id', 'https://www.instagram.com/p/'],
      ['stories', 'https://www.instagram.com/stories/somecapper/123/'],
      ['lookalike host', 'https://instagram.com.evil.net/p/AbC123/'],
      ['lookalike host', 'https://fakeinstagram.com/p/AbC123/'],
    ])('%s is not an Instagram post: %s', (_case, url) => {
      expect(detectPlatform(url)).toEqual({ platform: 'unknown' });
    });
  });

  describe('X/Twitter', () => {
    it.each<[string, VideoLink]>([
      [
        'https://x.com/capper/status/1234567890123456789',
        { platform: 'x', id: '1234567890123456789', user: 'capper' },
      ],
      ['https://twitter.com/capper/status/123', { platform: 'x', id: '123', user: 'capper' }],
      ['https://www.twitter.com/capper/status/123/', { platform: 'x', id: '123', user: 'capper' }],
      ['https://mobile.twitter.com/capper/status/123', { platform: 'x', id: '123', user: 'capper' }],
      ['https://mobile.x.com/capper/status/123', { platform: 'x', id: '123', user: 'capper' }],
      ['https://www.x.com/Capper_99/status/123?s=20&t=abc', { platform: 'x', id: '123', user: 'Capper_99' }],
      ['https://x.com/capper/status/123/video/1', { platform: 'x', id: '123', user: 'capper' }],
      ['https://x.com/capper/status/123/photo/1', { platform: 'x', id: '123', user: 'capper' }],
      ['https://twitter.com/capper/statuses/123', { platform: 'x', id: '123', user: 'capper' }],
      ['https://x.com/i/status/123', { platform: 'x', id: '123' }],
      ['https://twitter.com/i/web/status/123', { platform: 'x', id: '123' }],
      ['HTTPS://X.COM/capper/status/123', { platform: 'x', id: '123', user: 'capper' }],
    ])('%s', (url, link) => {
      expect(detectPlatform(url)).toEqual(link);
    });

    it.each([
      ['non-numeric id', 'https://x.com/capper/status/abc'],
      ['missing id', 'https://x.com/capper/status/'],
      ['missing user', 'https://x.com/status/123'],
      ['profile', 'https://x.com/capper'],
      ['user name too long', 'https://x.com/abcdefghijklmnop/status/123'],
      ['extra path', 'https://x.com/capper/status/123/likes'],
      ['lookalike host', 'https://x.com.evil.net/capper/status/123'],
      ['lookalike host', 'https://notx.com/capper/status/123'],
      ['lookalike host', 'https://twitter.co/capper/status/123'],
    ])('%s is not an X status: %s', (_case, url) => {
      expect(detectPlatform(url)).toEqual({ platform: 'unknown' });
    });
  });

  describe('TikTok, Rumble, BitChute', () => {
    it.each<[string, VideoLink]>([
      [
        'https://www.tiktok.com/@capper/video/7234567890123456789',
        { platform: 'tiktok', id: '7234567890123456789' },
      ],
      [
        'https://tiktok.com/@capper/video/7234567890123456789?lang=en',
        { platform: 'tiktok', id: '7234567890123456789' },
      ],
      ['https://m.tiktok.com/v/video/7234567890', { platform: 'tiktok', id: '7234567890' }],
      ['https://www.tiktok.com/embed/video/abc', { platform: 'tiktok' }],
      ['https://rumble.com/v2abc-some-pick.html', { platform: 'rumble' }],
      ['https://rumble.com/', { platform: 'rumble' }],
      ['https://www.bitchute.com/video/aBcD1234xYz/', { platform: 'bitchute', id: 'aBcD1234xYz' }],
      ['https://bitchute.com/video/aBcD1234xYz', { platform: 'bitchute', id: 'aBcD1234xYz' }],
    ])('%s', (url, link) => {
      expect(detectPlatform(url)).toEqual(link);
    });

    it.each([
      ['TikTok profile', 'https://www.tiktok.com/@capper'],
      ['TikTok short link', 'https://vm.tiktok.com/ZMabc123/'],
      ['TikTok /video/ with nothing after', 'https://www.tiktok.com/@capper/video/'],
      ['BitChute channel', 'https://www.bitchute.com/channel/capper/'],
      ['BitChute video without id', 'https://www.bitchute.com/video/'],
      ['lookalike Rumble', 'https://rumble.com.evil.net/v2abc.html'],
    ])('%s is unknown: %s', (_case, url) => {
      expect(detectPlatform(url)).toEqual({ platform: 'unknown' });
    });
  });

  describe('direct files', () => {
    it.each<[string, VideoLink]>([
      ['https://cdn.example.com/picks/game.mp4', { platform: 'file', extension: 'mp4', kind: 'video' }],
      ['https://cdn.example.com/picks/game.MP4', { platform: 'file', extension: 'mp4', kind: 'video' }],
      ['http://cdn.example.com/game.webm', { platform: 'file', extension: 'webm', kind: 'video' }],
      ['https://cdn.example.com/game.ogg', { platform: 'file', extension: 'ogg', kind: 'video' }],
      ['https://cdn.example.com/game.Mov', { platform: 'file', extension: 'mov', kind: 'video' }],
      ['https://cdn.example.com/slip.png', { platform: 'file', extension: 'png', kind: 'image' }],
      [
        'https://cdn.example.com/game.mp4?X-Amz-Signature=abc&X-Amz-Expires=3600',
        { platform: 'file', extension: 'mp4', kind: 'video' },
      ],
      ['https://cdn.example.com/game.mp4#t=10', { platform: 'file', extension: 'mp4', kind: 'video' }],
      ['https://CDN.Example.COM/a.b.c/game.tar.mp4', { platform: 'file', extension: 'mp4', kind: 'video' }],
    ])('%s', (url, link) => {
      expect(detectPlatform(url)).toEqual(link);
    });

    it.each([
      ['other extension', 'https://cdn.example.com/game.avi'],
      ['extension only in the query', 'https://cdn.example.com/watch?file=game.mp4'],
      ['extension only in the fragment', 'https://cdn.example.com/watch#game.mp4'],
      ['extension as a prefix', 'https://cdn.example.com/game.mp4x'],
      ['directory', 'https://cdn.example.com/game.mp4/'],
      ['no path', 'https://cdn.example.com'],
      ['not http', 'ftp://cdn.example.com/game.mp4'],
      ['relative', '/media/game.mp4'],
      ['a known site is never a file', 'https://www.youtube.com/clip.mp4'],
    ])('%s is not a direct file: %s', (_case, url) => {
      expect(detectPlatform(url).platform).not.toBe('file');
    });
  });

  describe('lookalikes, schemes and malformed input are unknown', () => {
    it.each([
      `https://youtube.com.evil.net/watch?v=${YT}`,
      `https://evilyoutube.com/watch?v=${YT}`,
      `https://youtube.co/watch?v=${YT}`,
      `https://youtu.be.evil.net/${YT}`,
      `https://notyoutu.be/${YT}`,
      `https://youtube-nocookie.com.evil.net/embed/${YT}`,
      `https://evil.net/youtube.com/watch?v=${YT}`,
      `https://evil.net/?u=https://www.youtube.com/watch?v=${YT}`,
      `https://evil.net/#youtube.com/watch?v=${YT}`,
      // Cyrillic "о": the URL parser turns it into punycode, which is not youtube.com
      `https://www.y\u043Eutube.com/watch?v=${YT}`,
      // credentials disguise the real host (evil.net)
      `https://www.youtube.com@evil.net/watch?v=${YT}`,
      `https://user:pass@www.youtube.com/watch?v=${YT}`,
      'https://user@cdn.example.com/game.mp4',
      // schemes other than http(s)
      `javascript:alert(1)//www.youtube.com/watch?v=${YT}`,
      `JavaScript://www.youtube.com/watch?v=${YT}%0Aalert(1)`,
      `ftp://www.youtube.com/watch?v=${YT}`,
      `data:text/html,<script>alert(1)</script>`,
      'data:video/mp4;base64,AAAA.mp4',
      `file:///etc/passwd.mp4`,
      `//www.youtube.com/watch?v=${YT}`,
      `www.youtube.com/watch?v=${YT}`,
      `youtu.be/${YT}`,
      // "http" must be followed by "://"
      `https:www.youtube.com/watch?v=${YT}`,
      `https:\\\\www.youtube.com\\watch?v=${YT}`,
      `httpx://www.youtube.com/watch?v=${YT}`,
      // whitespace or control characters inside (the URL parser would silently drop them)
      `https://www.you\ntube.com/watch?v=${YT}`,
      `https://www.you\ttube.com/watch?v=${YT}`,
      `https://www.youtube.com/watch?v=${YT} x`,
      // not URLs at all
      '',
      '   ',
      'not a url',
      'https://',
      'https://exa mple.com/a.mp4',
      `https://www.youtube.com/watch?v=${YT}&pad=${'a'.repeat(EXTERNAL_VIDEO_URL_MAX_LENGTH)}`,
    ])('%s', (url) => {
      expect(detectPlatform(url)).toEqual({ platform: 'unknown' });
    });
  });

  it('knows nothing of the unnamed "video site" (docs/product-decisions.md "Media": other hosts)', () => {
    expect(detectPlatform('https://videosite.example/watch?id=abc123')).toEqual({ platform: 'unknown' });
  });
});

describe('validateExternalVideoUrl', () => {
  describe('accepts every spec 5 form and other hosts', () => {
    it.each([
      [`https://www.youtube.com/watch?v=${YT}`, 'youtube'],
      [`https://m.youtube.com/watch?v=${YT}&t=1`, 'youtube'],
      [`https://www.youtube.com/embed/${YT}`, 'youtube'],
      [`https://www.youtube.com/shorts/${YT}`, 'youtube'],
      [`https://www.youtube.com/live/${YT}`, 'youtube'],
      [`https://youtu.be/${YT}`, 'youtube'],
      [`https://www.youtube-nocookie.com/embed/${YT}`, 'youtube'],
      ['https://vimeo.com/123456', 'vimeo'],
      ['https://player.vimeo.com/video/123456', 'vimeo'],
      ['https://x.com/capper/status/123', 'x'],
      ['https://twitter.com/capper/status/123', 'x'],
      ['https://www.tiktok.com/@capper/video/7234567890123456789', 'tiktok'],
      ['https://www.tiktok.com/embed/video/abc', 'tiktok'],
      ['https://www.bitchute.com/video/aBcD1234xYz/', 'bitchute'],
      // Instagram: any link accepted; posts and reels are embeddable
      ['https://www.instagram.com/p/AbC123/', 'instagram'],
      ['https://www.instagram.com/reel/AbC123/', 'instagram'],
      ['https://www.instagram.com/somecapper/', 'unknown'],
      ['https://www.instagram.com/', 'unknown'],
      // Rumble: any link accepted
      ['https://rumble.com/v2abc-some-pick.html', 'rumble'],
      ['https://rumble.com/c/somecapper', 'rumble'],
      // other hosts: accepted (the unnamed "video site" is one of them)
      ['https://videosite.example/watch?id=abc123', 'unknown'],
      ['http://example.com', 'unknown'],
      ['https://cdn.example.com/game.mp4', 'file'],
      ['https://evilyoutube.com/anything', 'unknown'],
      [`https://youtube.com.evil.net/watch?v=bad`, 'unknown'],
      ['https://192.0.2.1:8443/clip', 'unknown'],
    ])('%s → %s', (url, platform) => {
      const result = validateExternalVideoUrl(url);
      expect(result).toMatchObject({ ok: true, url, platform });
      if (result.ok) expect(result.link).toEqual(detectPlatform(url));
    });

    it('returns the trimmed link to store', () => {
      expect(validateExternalVideoUrl(`  https://youtu.be/${YT}\n`)).toMatchObject({
        ok: true,
        url: `https://youtu.be/${YT}`,
      });
    });
  });

  describe('refuses a malformed link to a known site, listing the accepted formats', () => {
    it.each([
      ['YouTube', `https://www.youtube.com/watch?v=${YT.slice(0, 10)}`],
      ['YouTube', `https://www.youtube.com/watch?v=${YT}X`],
      ['YouTube', 'https://www.youtube.com/watch'],
      ['YouTube', 'https://www.youtube.com/watch?list=PL123'],
      ['YouTube', 'https://www.youtube.com/embed/'],
      ['YouTube', 'https://www.youtube.com/shorts/abc'],
      ['YouTube', 'https://youtu.be/'],
      ['YouTube', 'https://youtu.be/abc'],
      ['YouTube', 'https://www.youtube.com/@somecapper'],
      ['YouTube', 'https://WWW.YOUTUBE.COM/'],
      ['YouTube', 'https://studio.youtube.com/channel/UC123'],
      ['Vimeo', 'https://vimeo.com/somecapper'],
      ['Vimeo', 'https://vimeo.com/channels/staffpicks'],
      ['X/Twitter', 'https://x.com/capper'],
      ['X/Twitter', 'https://twitter.com/capper/status/abc'],
      ['X/Twitter', 'https://mobile.twitter.com/status/123'],
      ['TikTok', 'https://www.tiktok.com/@capper'],
      ['TikTok', 'https://vm.tiktok.com/ZMabc123/'],
      ['TikTok', 'https://www.tiktok.com/@capper/video/'],
      ['BitChute', 'https://www.bitchute.com/channel/capper/'],
      ['BitChute', 'https://www.bitchute.com/video/'],
      ['BitChute', 'https://www.bitchute.com/embed/aBcD1234xYz/'],
    ])('%s: %s', (site, url) => {
      expect(validateExternalVideoUrl(url)).toEqual({
        ok: false,
        message: `Invalid ${site} URL. Accepted formats: ${ACCEPTED_VIDEO_URL_FORMATS_TEXT}`,
      });
    });
  });

  describe('refuses what is not an http(s) link', () => {
    it.each([
      '',
      '   ',
      'not a url',
      `youtu.be/${YT}`,
      `www.youtube.com/watch?v=${YT}`,
      `//www.youtube.com/watch?v=${YT}`,
      'javascript:alert(1)',
      'JAVASCRIPT:alert(document.cookie)//https://x.com',
      'ftp://cdn.example.com/game.mp4',
      'data:text/html;base64,PHNjcmlwdD4=',
      'file:///etc/passwd',
      'mailto:capper@example.com',
      'https:example.com/game.mp4',
      'https://',
      'http://exa mple.com/',
      'https://example.com/\u0000.mp4',
      'https://example.com:99999/',
    ])('%j', (url) => {
      expect(validateExternalVideoUrl(url)).toEqual({ ok: false, message: INVALID_URL_MESSAGE });
    });

    it('accepts any case of the scheme', () => {
      expect(validateExternalVideoUrl(`HTTPS://youtu.be/${YT}`)).toMatchObject({
        ok: true,
        platform: 'youtube',
      });
      expect(validateExternalVideoUrl('Http://example.com/')).toMatchObject({
        ok: true,
        platform: 'unknown',
      });
    });
  });

  it('refuses links with credentials, which can disguise the host', () => {
    for (const url of [
      `https://www.youtube.com@evil.net/watch?v=${YT}`,
      'https://user:pass@example.com/game.mp4',
      'https://user@example.com/',
      'https://:pass@example.com/',
    ]) {
      expect(validateExternalVideoUrl(url)).toEqual({ ok: false, message: URL_CREDENTIALS_MESSAGE });
    }
  });

  it(`refuses links longer than ${EXTERNAL_VIDEO_URL_MAX_LENGTH} characters`, () => {
    const base = 'https://example.com/?q=';
    const longest = base + 'a'.repeat(EXTERNAL_VIDEO_URL_MAX_LENGTH - base.length);
    expect(longest).toHaveLength(EXTERNAL_VIDEO_URL_MAX_LENGTH);
    expect(validateExternalVideoUrl(longest)).toMatchObject({ ok: true });
    expect(validateExternalVideoUrl(`${longest}a`)).toEqual({ ok: false, message: URL_TOO_LONG_MESSAGE });
    expect(validateExternalVideoUrl('x'.repeat(1_000_000))).toEqual({
      ok: false,
      message: URL_TOO_LONG_MESSAGE,
    });
  });
});

describe('accepted formats hint', () => {
  it('names each site with its formats, as the upload form shows it', () => {
    expect(ACCEPTED_VIDEO_URL_FORMATS_TEXT).toBe(
      'YouTube: youtube.com/watch?v=ID, youtube.com/embed/ID, youtube.com/shorts/ID, youtube.com/live/ID, ' +
        'youtu.be/ID; Vimeo: vimeo.com/123…, player.vimeo.com/video/123…; X/Twitter: x.com/user/status/123…; ' +
        'TikTok: tiktok.com/@user/video/123…; BitChute: bitchute.com/video/ID; ' +
        'Instagram, Rumble and other sites: any link',
    );
  });

  it('lists only formats that are themselves accepted', () => {
    const examples = ACCEPTED_VIDEO_URL_FORMATS.flatMap(({ formats }) => formats)
      .filter((format) => format !== 'any link')
      .map(
        (format) =>
          `https://${format.replace('ID', YT).replace('123…', '1234567890').replace('@user', '@capper')}`,
      );
    expect(examples).toHaveLength(10);
    for (const url of examples) {
      const result = validateExternalVideoUrl(url);
      expect(result, url).toMatchObject({ ok: true });
      expect(result.ok && result.platform, url).not.toBe('unknown');
    }
  });
});

describe('embedUrl', () => {
  it.each<[string, string | undefined]>([
    [`https://www.youtube.com/watch?v=${YT}&t=42`, `https://www.youtube-nocookie.com/embed/${YT}`],
    [`https://youtu.be/${YT_SYMBOLS}`, `https://www.youtube-nocookie.com/embed/${YT_SYMBOLS}`],
    [`https://www.youtube.com/shorts/${YT}`, `https://www.youtube-nocookie.com/embed/${YT}`],
    ['https://vimeo.com/123456', 'https://player.vimeo.com/video/123456'],
    ['https://vimeo.com/123456/abcdef0123', 'https://player.vimeo.com/video/123456?h=abcdef0123'],
    ['https://www.instagram.com/p/AbC123/?igsh=x', 'https://www.instagram.com/p/AbC123/embed'],
    ['https://www.instagram.com/reels/AbC123/', 'https://www.instagram.com/reel/AbC123/embed'],
    ['https://x.com/capper/status/123?s=20', 'https://platform.twitter.com/embed/Tweet.html?id=123&dnt=true'],
    ['https://www.tiktok.com/@capper/video/7234567890', undefined],
    ['https://rumble.com/v2abc.html', undefined],
    ['https://www.bitchute.com/video/aBcD1234xYz/', undefined],
    ['https://cdn.example.com/game.mp4', undefined],
    ['https://example.com/', undefined],
    ['javascript:alert(1)', undefined],
  ])('%s → %s', (url, expected) => {
    expect(embedUrl(detectPlatform(url))).toBe(expected);
  });

  it('adds autoplay and mute parameters when asked', () => {
    const youtube: VideoLink = { platform: 'youtube', id: YT };
    expect(embedUrl(youtube, { autoplay: true })).toBe(
      `https://www.youtube-nocookie.com/embed/${YT}?autoplay=1&playsinline=1&rel=0`,
    );
    expect(embedUrl(youtube, { autoplay: true, muted: true })).toBe(
      `https://www.youtube-nocookie.com/embed/${YT}?autoplay=1&playsinline=1&rel=0&mute=1`,
    );
    expect(embedUrl({ platform: 'vimeo', id: '123' }, { autoplay: true, muted: true })).toBe(
      'https://player.vimeo.com/video/123?autoplay=1&playsinline=1&muted=1',
    );
    expect(embedUrl({ platform: 'vimeo', id: '123', hash: 'abc' }, { autoplay: true })).toBe(
      'https://player.vimeo.com/video/123?h=abc&autoplay=1&playsinline=1',
    );
  });

  it('only ever frames the origins of EMBED_ORIGINS, which the CSP frame-src allows', () => {
    const links: VideoLink[] = [
      { platform: 'youtube', id: YT },
      { platform: 'vimeo', id: '1', hash: 'ab' },
      { platform: 'instagram', kind: 'p', id: 'a' },
      { platform: 'instagram', kind: 'reel', id: 'a' },
      { platform: 'x', id: '1', user: 'u' },
    ];
    for (const link of links) {
      for (const options of [{}, { autoplay: true }, { autoplay: true, muted: true }]) {
        const src = embedUrl(link, options);
        expect(src).toBeDefined();
        expect(EMBED_ORIGINS).toContain(new URL(src as string).origin);
      }
    }
  });
});

describe('externalPageUrl', () => {
  it.each<[VideoLink, string | undefined]>([
    [{ platform: 'youtube', id: YT }, `https://www.youtube.com/watch?v=${YT}`],
    [{ platform: 'vimeo', id: '123' }, 'https://vimeo.com/123'],
    [{ platform: 'vimeo', id: '123', hash: 'abc' }, 'https://vimeo.com/123/abc'],
    [{ platform: 'instagram', kind: 'reel', id: 'AbC' }, 'https://www.instagram.com/reel/AbC/'],
    [{ platform: 'x', id: '123', user: 'capper' }, 'https://x.com/capper/status/123'],
    [{ platform: 'x', id: '123' }, 'https://x.com/i/status/123'],
    [{ platform: 'rumble' }, undefined],
    [{ platform: 'unknown' }, undefined],
  ])('%j → %s', (link, expected) => {
    expect(externalPageUrl(link)).toBe(expected);
  });

  it('round-trips: the canonical page is detected as the same link', () => {
    for (const url of [
      `https://youtu.be/${YT}`,
      'https://vimeo.com/123/abcdef',
      'https://www.instagram.com/reels/AbC123/',
      'https://twitter.com/capper/status/123',
    ]) {
      const link = detectPlatform(url);
      expect(detectPlatform(externalPageUrl(link) as string)).toEqual(link);
    }
  });
});

it('labels every platform', () => {
  expect(Object.keys(PLATFORM_LABELS).sort()).toEqual([...VIDEO_PLATFORMS].sort());
  expect(invalidSiteUrlMessage('x')).toMatch(/^Invalid X\/Twitter URL\. Accepted formats: YouTube: /);
});

describe('linkThumbnailUrl', () => {
  const thumbnail = (url: string) => linkThumbnailUrl(detectPlatform(url));

  it("is YouTube's picture of the video id, for every YouTube form", () => {
    const expected = 'https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg';
    for (const url of [
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://youtube.com/watch?feature=share&v=dQw4w9WgXcQ&t=42',
      'https://m.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://youtu.be/dQw4w9WgXcQ?si=abc',
      'https://www.youtube.com/shorts/dQw4w9WgXcQ',
      'https://www.youtube.com/embed/dQw4w9WgXcQ',
      'https://www.youtube.com/live/dQw4w9WgXcQ',
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
      'HTTPS://WWW.YOUTUBE.COM/watch?v=dQw4w9WgXcQ',
    ]) {
      expect(thumbnail(url), url).toBe(expected);
    }
    expect(thumbnail('https://youtu.be/a-b_c-D_e-F')).toBe(
      'https://i.ytimg.com/vi/a-b_c-D_e-F/hqdefault.jpg',
    );
  });

  it('is none for what cannot be known without asking the platform', () => {
    for (const url of [
      'https://vimeo.com/123456',
      'https://www.instagram.com/reel/Cabc123/',
      'https://x.com/user/status/123',
      'https://www.tiktok.com/@user/video/123',
      'https://rumble.com/v1abc-game.html',
      'https://www.bitchute.com/video/abc123/',
      'https://cdn.example.com/clip.mp4',
      'https://example.com/watch?v=dQw4w9WgXcQ',
      'https://youtube.com.evil.net/watch?v=dQw4w9WgXcQ',
    ]) {
      expect(thumbnail(url), url).toBeNull();
    }
  });
});

describe('linkSiteName', () => {
  it('names the platform, else the host, else says it is a link', () => {
    expect(linkSiteName('https://vimeo.com/123456')).toBe('Vimeo');
    expect(linkSiteName('https://www.instagram.com/reel/Cabc123/')).toBe('Instagram');
    expect(linkSiteName('https://twitter.com/user/status/1')).toBe('X/Twitter');
    expect(linkSiteName('https://m.youtube.com/watch?v=dQw4w9WgXcQ')).toBe('YouTube');
    expect(linkSiteName('https://rumble.com./v1abc')).toBe('Rumble');
    expect(linkSiteName('https://www.dailymotion.com/video/x8abc')).toBe('dailymotion.com');
    expect(linkSiteName('https://youtube.com.evil.net/watch?v=dQw4w9WgXcQ')).toBe('youtube.com.evil.net');
    expect(linkSiteName('not a link')).toBe('External link');
    expect(linkSiteName(null)).toBe('External link');
  });
});
