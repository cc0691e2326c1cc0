import { Link } from 'wouter';
import { SearchX } from 'lucide-react';
import { buttonClasses } from '../components/ui/button';
import { useDocumentTitle } from '../lib/use-document-title';

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <div className="mx-auto flex min-h-[60vh] w-full max-w-xl flex-col items-center justify-center gap-5 px-4 text-center">
      <span className="inline-flex size-16 items-center justify-center rounded-2xl bg-muted text-muted-foreground">
        <SearchX aria-hidden className="size-8" />
      </span>
      <h1 className="text-3xl font-bold tracking-tight">404 Page Not Found</h1>
      <p className="text-muted-foreground">The page you are looking for does not exist or has moved.</p>
      <Link href="/" className={buttonClasses('primary', 'md')}>
        Back to home
      </Link>
    </div>
  );
}
