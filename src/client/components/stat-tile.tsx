import { useId, type ReactNode } from 'react';
import { Card } from './ui/card';

/** One of the dashboard's summary tiles: a named region, so each is reachable by its title. */
export function StatTile({ title, icon, children }: { title: string; icon: ReactNode; children: ReactNode }) {
  const headingId = useId();
  return (
    <Card className="p-5">
      <section aria-labelledby={headingId} className="grid h-full content-start gap-3">
        <div className="flex items-center justify-between gap-3">
          <h2 id={headingId} className="text-sm font-semibold text-muted-foreground">
            {title}
          </h2>
          <span className="inline-flex size-9 items-center justify-center rounded-lg bg-primary/10 text-primary [&_svg]:size-5">
            {icon}
          </span>
        </div>
        {children}
      </section>
    </Card>
  );
}
