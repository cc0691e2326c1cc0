import { Link } from 'wouter';
import type { CapperMatch } from '#common/schemas/capper-search.js';
import { formatUnits } from '#common/pick-grading.js';
import { Avatar } from '#client/components/ui/avatar.tsx';

/** '+5.0u · 12-8-1': the verified record in a few characters, or that there is none yet. */
function recordLine(capper: CapperMatch): string {
  const record = capper.record;
  if (!record) return 'No verified record yet';
  return `Verified ${record.wins}-${record.losses}-${record.pushes} · ${formatUnits(record.unitsWon)}`;
}

/** The cappers a /videos search found by username or display name, each a link to their storefront. */
export function CapperMatches({ q, cappers }: { q: string; cappers: CapperMatch[] }) {
  return (
    <section aria-labelledby="capper-matches" className="grid gap-3">
      <h2 id="capper-matches" className="text-lg font-semibold tracking-tight">
        Cappers matching “{q}”
      </h2>
      <ul className="flex flex-wrap gap-3">
        {cappers.map((capper) => (
          <li key={capper.username} className="min-w-0 max-w-full">
            <Link
              href={`/cappers/${encodeURIComponent(capper.username)}`}
              className="flex min-w-0 items-center gap-3 rounded-lg border bg-card px-3 py-2 transition hover:border-primary/50 hover:bg-accent focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
            >
              <Avatar
                name={capper.displayName ?? capper.username}
                src={capper.avatarUrl}
                className="size-9 text-sm"
              />
              <span className="grid min-w-0">
                <span className="truncate font-semibold">
                  {capper.displayName ?? capper.username}
                  {capper.displayName && (
                    <span className="ml-1.5 text-sm font-normal text-muted-foreground">
                      @{capper.username}
                    </span>
                  )}
                </span>
                <span className="truncate text-xs text-muted-foreground">{recordLine(capper)}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
