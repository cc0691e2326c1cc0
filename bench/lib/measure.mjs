// A timed load of one URL (or a list of paths through a wrk script) with its CPU cost per request: the
// measurement the hardening and picks suites share.
import { runLoad } from './load.mjs';
import { groupCpuSeconds } from './noise.mjs';
import { fmt } from './util.mjs';
import { writeWrkScript } from './wrk-script.mjs';

/**
 * A warm-up (1 s quick, else 2 s), then the measured run, in one timed window. With `requests` (a list
 * sent in turn by a wrk script), the warm-up starts half-way through the list so both runs miss the cache.
 * `pgid`: CPU time per request of that process group. Non-2xx answers or socket errors fail the run unless
 * `allowErrors`.
 */
export async function measure(ctx, name, url, { settings, requests, headers, pgid, allowErrors = false }) {
  const { quick, log, tool } = ctx;
  const script = requests ? writeWrkScript(requests, { headers, name }) : undefined;
  const stride = requests ? Math.floor(requests.length / settings.threads) : 0;
  const warmup = { ...settings, seconds: quick ? 1 : 2 };
  const { value: figures, noise } = await ctx.timed(async () => {
    const warm = await runLoad(tool, url, {
      ...warmup,
      headers: script ? {} : headers,
      script,
      scriptArgs: script ? [Math.floor(stride / 2), stride] : [],
    });
    const cpuBefore = pgid ? groupCpuSeconds(pgid) : NaN;
    const measured = await runLoad(tool, url, {
      ...settings,
      headers: script ? {} : headers,
      script,
      scriptArgs: script ? [0, stride] : [],
    });
    const cpuSeconds = pgid ? groupCpuSeconds(pgid) - cpuBefore : NaN;
    return {
      ...measured,
      warmupErrors: warm.non2xx + warm.socketErrors,
      warmupStatuses: warm.statuses,
      cpuUsPerRequest: (cpuSeconds * 1e6) / measured.requests,
    };
  });
  const errors = figures.non2xx + figures.socketErrors;
  if (errors && !allowErrors) {
    throw new Error(
      `${name}: ${figures.non2xx} non-2xx answers ${JSON.stringify(figures.statuses ?? {})}, ${figures.socketErrors} socket errors\n${figures.raw}`,
    );
  }
  // Each path of the list comes back after `repeatSeconds` (per thread): under the cache's 2 s it may be a hit.
  const repeatSeconds = requests ? stride / (figures.rps / settings.threads) : NaN;
  log(
    `${name}: ${fmt.rps(figures.rps)}, p50 ${fmt.ms(figures.p50Ms)}, p99 ${fmt.ms(figures.p99Ms)}, max ${fmt.ms(figures.maxMs)} ` +
      `(${figures.requests} requests${Number.isFinite(figures.cpuUsPerRequest) ? `, ${Math.round(figures.cpuUsPerRequest)} µs CPU each` : ''}` +
      `${requests ? `, ${requests.length} distinct, each again after ${repeatSeconds.toFixed(1)} s` : ''}; ` +
      `others used ${Math.round(noise.share * 100)}% of the machine)`,
  );
  return { ...figures, raw: undefined, settings, noise, repeatSeconds, distinct: requests?.length };
}

export const oneClient = (quick) => ({ connections: 1, threads: 1, seconds: quick ? 3 : 10 });
