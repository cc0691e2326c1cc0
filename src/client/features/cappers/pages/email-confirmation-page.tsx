import { Link, useSearch } from 'wouter';
import { AlertTriangle } from 'lucide-react';
import { useDocumentTitle } from '#client/lib/use-document-title.ts';
import { CONFIRMATION_PROBLEMS, type ConfirmationProblem } from '#common/schemas/profile.js';

/** Where a browser lands from a confirmation link that did not work: why, in words, and where to go next. */
export function EmailConfirmationPage() {
  useDocumentTitle('E-mail confirmation');
  const problem = new URLSearchParams(useSearch()).get('problem');
  const message =
    problem !== null && problem in CONFIRMATION_PROBLEMS
      ? CONFIRMATION_PROBLEMS[problem as ConfirmationProblem]
      : CONFIRMATION_PROBLEMS.invalid;
  return (
    <div className="mx-auto grid w-full max-w-xl gap-6 px-4 py-8 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight">E-mail not confirmed</h1>
      <p
        role="alert"
        className="flex items-start gap-2 rounded-card border border-destructive/30 bg-card p-6"
      >
        <AlertTriangle aria-hidden className="mt-0.5 size-5 shrink-0 text-destructive" />
        <span>{message}</span>
      </p>
      <p>
        <Link
          href="/settings/profile"
          className="font-medium text-primary underline-offset-4 hover:underline"
        >
          Go to your profile settings
        </Link>
      </p>
    </div>
  );
}
