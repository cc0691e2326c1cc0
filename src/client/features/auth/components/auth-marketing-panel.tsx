import { Clapperboard, Trophy } from 'lucide-react';
import { PLATFORM_CUT_PERCENT, PRODUCT_NAME } from '#common/constants.js';

export function AuthMarketingPanel() {
  return (
    <section
      aria-labelledby="auth-marketing-title"
      className="relative overflow-hidden rounded-card bg-ink p-8 text-white shadow-xl sm:p-10"
    >
      <div
        aria-hidden
        className="pointer-events-none absolute -top-24 -right-24 size-72 rounded-full bg-emerald-500/25 blur-3xl"
      />
      <div
        aria-hidden
        className="pointer-events-none absolute -bottom-28 -left-16 size-72 rounded-full bg-amber-400/15 blur-3xl"
      />
      <div className="relative grid gap-8">
        {/* spec 2: the brand and two lines, one per role. */}
        <div className="flex items-center gap-3">
          <span className="inline-flex size-11 items-center justify-center rounded-xl bg-emerald-500 text-white">
            <Clapperboard aria-hidden className="size-6" />
          </span>
          <h2 id="auth-marketing-title" className="text-3xl font-extrabold tracking-tight">
            {PRODUCT_NAME}
          </h2>
        </div>
        <ul className="grid gap-5">
          <li className="flex gap-4">
            <Clapperboard aria-hidden className="mt-0.5 size-6 shrink-0 text-emerald-400" />
            <p className="text-base leading-relaxed text-slate-100">
              <strong className="font-semibold text-white">Cappers</strong> upload preview videos and sell
              their daily winners. We only take a {PLATFORM_CUT_PERCENT}% cut.
            </p>
          </li>
          <li className="flex gap-4">
            <Trophy aria-hidden className="mt-0.5 size-6 shrink-0 text-amber-400" />
            <p className="text-base leading-relaxed text-slate-100">
              <strong className="font-semibold text-white">Bettors</strong> buy daily winners from the cappers
              they trust.
            </p>
          </li>
        </ul>
      </div>
    </section>
  );
}
