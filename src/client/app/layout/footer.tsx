import type { ReactNode } from 'react';
import { PLATFORM_CUT_PERCENT, PRODUCT_NAME, RESPONSIBLE_GAMBLING_LINE } from '#common/constants.js';
import { BrandMark } from './brand';
import { FacebookIcon, InstagramIcon, XIcon, YouTubeIcon } from './social-icons';

const SOCIAL: { label: string; icon: ReactNode }[] = [
  { label: `${PRODUCT_NAME} on X`, icon: <XIcon /> },
  { label: `${PRODUCT_NAME} on Facebook`, icon: <FacebookIcon /> },
  { label: `${PRODUCT_NAME} on Instagram`, icon: <InstagramIcon /> },
  { label: `${PRODUCT_NAME} on YouTube`, icon: <YouTubeIcon /> },
];

export function Footer() {
  const year = new Date().getFullYear();
  return (
    <footer className="mt-16 border-t bg-ink text-slate-300">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 sm:px-6 md:grid-cols-[1fr_auto] md:items-start lg:px-8">
        <div className="grid gap-3">
          <p className="flex items-center gap-2 text-xl font-extrabold tracking-tight text-white">
            <BrandMark />
            {PRODUCT_NAME}
          </p>
          <p className="max-w-md text-sm">
            Cappers sell their daily winners; bettors buy the picks they trust. We keep a{' '}
            {PLATFORM_CUT_PERCENT}% cut.
          </p>
        </div>
        {/* spec 2: social icon links without targets, so each is a named placeholder link. */}
        <ul className="flex gap-2" aria-label="Social media">
          {SOCIAL.map(({ label, icon }) => (
            <li key={label}>
              <a
                href="#"
                aria-label={label}
                onClick={(event) => event.preventDefault()}
                className="inline-flex size-10 items-center justify-center rounded-full bg-white/5 text-slate-300 ring-1 ring-white/10 transition-colors hover:bg-white/10 hover:text-white"
              >
                {icon}
              </a>
            </li>
          ))}
        </ul>
      </div>
      <div className="border-t border-white/10">
        <div className="mx-auto flex max-w-7xl flex-col gap-2 px-4 py-5 text-sm sm:px-6 md:flex-row md:justify-between lg:px-8">
          <p className="font-medium text-amber-300">{RESPONSIBLE_GAMBLING_LINE}</p>
          <p>
            &copy; {year} {PRODUCT_NAME}. All rights reserved.
          </p>
        </div>
      </div>
    </footer>
  );
}
