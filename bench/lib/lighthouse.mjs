// One Lighthouse run (npm `lighthouse`, programmatic) in a headless Chromium of its own with a fresh profile,
// stopped afterwards. Its defaults: mobile emulation (Moto G Power), simulated throttling.
import { mkdirSync } from 'node:fs';
import { CHROMIUM_ARGS } from './chromium.mjs';
import { waitFor200 } from './http.mjs';
import { spawnTracked } from './procs.mjs';
import { freePort, tempDir } from './util.mjs';

// The flags the foundation suite uses; --host-resolver-rules keeps everything on 127.0.0.1.
const FLAGS = ['--headless', ...CHROMIUM_ARGS];

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

/**
 * Runs Lighthouse on `url`. `extraHeaders` go with every request (a session cookie for a signed-in page:
 * Lighthouse clears the origin's storage before loading, but not its cookies, and the profile is new).
 * `chromiumFlags` are added to (or replace) the default flags. Returns the category scores (0 to 100), the
 * main metrics and the audits that did not pass.
 */
export async function lighthouseOnce(
  url,
  { executablePath, categories = CATEGORIES, extraHeaders, chromiumFlags = [] } = {},
) {
  const { default: lighthouse } = await import('lighthouse');
  const port = await freePort();
  const profile = tempDir('pickreel-bench-chromium-');
  mkdirSync(profile, { recursive: true });
  const chrome = spawnTracked(
    executablePath,
    [
      // A flag given again (--host-resolver-rules of a stand-in) replaces the default one.
      ...FLAGS.filter((flag) => !chromiumFlags.some((f) => f.split('=')[0] === flag.split('=')[0])),
      ...chromiumFlags,
      `--user-data-dir=${profile}`,
      `--remote-debugging-port=${port}`,
      '--remote-debugging-address=127.0.0.1',
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  try {
    await waitFor200(`http://127.0.0.1:${port}/json/version`, { deadlineMs: 30_000, exited: chrome.exited });
    const runner = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: categories,
      ...(extraHeaders ? { extraHeaders } : {}),
    });
    const { lhr } = runner;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const audit = (id) => lhr.audits[id];
    const items = (id) => audit(id)?.details?.items ?? [];
    const scripts = items('network-requests').filter((r) => r.resourceType === 'Script');
    const lcpElement = items('largest-contentful-paint-element')[0]?.items?.[0]?.node;
    const scores = {};
    const failing = {};
    for (const id of categories) {
      const category = lhr.categories[id];
      scores[id] = category?.score == null ? NaN : Math.round(category.score * 100);
      // Audits that count and did not pass (performance: the metrics below say more than its audits).
      failing[id] = (category?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0 || id !== 'performance')
        .map((ref) => audit(ref.id))
        .filter((a) => a && a.scoreDisplayMode !== 'notApplicable' && a.scoreDisplayMode !== 'manual')
        .filter((a) => a.score !== null && a.score < 1 && (id !== 'performance' || a.score < 0.9))
        .map((a) => ({ id: a.id, title: a.title, score: a.score, displayValue: a.displayValue ?? null }));
    }
    return {
      scores,
      failing,
      finalUrl: lhr.finalDisplayedUrl,
      lcpMs: audit('largest-contentful-paint')?.numericValue,
      fcpMs: audit('first-contentful-paint')?.numericValue,
      tbtMs: audit('total-blocking-time')?.numericValue,
      cls: audit('cumulative-layout-shift')?.numericValue,
      speedIndexMs: audit('speed-index')?.numericValue,
      jsTransferBytes: scripts.reduce((a, r) => a + (r.transferSize ?? 0), 0),
      jsResourceBytes: scripts.reduce((a, r) => a + (r.resourceSize ?? 0), 0),
      jsFiles: scripts.length,
      totalBytes: audit('total-byte-weight')?.numericValue,
      lcpElement: lcpElement ? { selector: lcpElement.selector, snippet: lcpElement.snippet } : null,
      lcpPhases: items('largest-contentful-paint-element')[1]?.items ?? null,
      consoleErrors: items('errors-in-console').map((e) => `${e.source ?? ''}: ${e.description ?? ''}`),
      warnings: lhr.runWarnings,
      lighthouseVersion: lhr.lighthouseVersion,
      userAgent: lhr.environment?.hostUserAgent,
    };
  } finally {
    await chrome.stop({ graceMs: 5000 });
  }
}
