import type { ReactNode } from 'react';
import { useDocumentTitle } from '../lib/use-document-title';

/** Holds a route's place until the issue that builds the page lands. */
export function PlaceholderPage({ title, children }: { title: string; children?: ReactNode }) {
  useDocumentTitle(title);
  return (
    <div className="mx-auto grid w-full max-w-7xl gap-3 px-4 py-10 sm:px-6 lg:px-8">
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      {children && <div className="text-muted-foreground">{children}</div>}
    </div>
  );
}
