import { Link } from 'wouter';
import { ArrowRight, Phone, ShieldCheck, Upload } from 'lucide-react';
import { buttonClasses } from '#client/components/ui/button.tsx';
import { appConfig } from '#client/lib/app-config.ts';

/** Where the hero's "how to check it" leads: the log page's explanation of what verified means. */
export const HOW_TO_CHECK_HREF = '/log#how-to-check';

// The home banner says what "verified" means and where to check it, and gives the support phone (spec 1);
// the platform's cut is the sellers' business: the footer, sign-in and payouts state it.
export function HeroBanner() {
  const phone = appConfig.supportPhone;
  return (
    <section
      aria-labelledby="hero-title"
      className="relative isolate overflow-hidden rounded-card bg-ink px-6 py-12 text-white shadow-xl sm:px-10 sm:py-16"
    >
      <div
        aria-hidden
        className="absolute -top-32 right-0 -z-10 size-96 rounded-full bg-emerald-500/30 blur-3xl"
      />
      <div
        aria-hidden
        className="absolute -bottom-40 -left-20 -z-10 size-96 rounded-full bg-amber-400/15 blur-3xl"
      />
      <div className="grid max-w-3xl gap-6">
        <p className="inline-flex w-fit items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-sm font-medium text-emerald-300 ring-1 ring-white/15">
          <ShieldCheck aria-hidden className="size-4" />
          Sealed · Graded · Publicly logged
        </p>
        <h1 id="hero-title" className="text-3xl font-extrabold tracking-tight text-balance sm:text-5xl">
          Sports picks you can check.
        </h1>
        <p className="max-w-2xl text-lg text-slate-300" data-testid="hero-verified">
          <strong className="font-semibold text-white">Verified</strong> means sealed before the game, graded
          from the final scores, and every grade in a public log anyone can check.{' '}
          <Link
            href={HOW_TO_CHECK_HREF}
            className="inline-flex items-center gap-1 font-semibold whitespace-nowrap text-emerald-300 underline underline-offset-4 hover:text-emerald-200"
          >
            How to check it
            <ArrowRight aria-hidden className="size-4" />
          </Link>
        </p>
        <div className="flex flex-wrap items-center gap-3">
          <Link href="/upload" className={buttonClasses('accent', 'lg')}>
            <Upload aria-hidden />
            Sell your picks
          </Link>
          <a
            href={`tel:${phone.replace(/[^\d+]/g, '')}`}
            className="inline-flex items-center gap-2 rounded-xl px-3 py-2 text-base font-medium text-slate-100 hover:bg-white/10"
          >
            <Phone aria-hidden className="size-5 text-emerald-400" />
            <span>
              Support: <span className="font-semibold text-white">{phone}</span>
            </span>
          </a>
        </div>
      </div>
    </section>
  );
}
