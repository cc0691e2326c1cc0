import { Link, useSearch } from 'wouter';
import { AlertTriangle, CheckCircle2, LoaderCircle, MailX } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import { Skeleton } from '#client/components/ui/skeleton.tsx';
import { errorMessage } from '#client/lib/error-message.ts';
import { useDocumentTitle } from '#client/lib/use-document-title.ts';
import { UNSUBSCRIBE_LINK_INVALID } from '#common/schemas/alert-preferences.js';
import { useUnsubscribe, useUnsubscribeLink } from '../api/unsubscribe';

/** 'E-mail alerts from Sam' inside a sentence. */
const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

const settingsLink = (
  <Link
    href="/settings/notifications"
    className="font-medium text-primary underline-offset-4 hover:underline"
  >
    notification settings
  </Link>
);

/**
 * Where an e-mail's unsubscribe link leads: it says what will be turned off and waits for the button, so a
 * mail scanner following the link changes nothing. No sign-in needed: the signed link is enough.
 */
export function UnsubscribePage() {
  useDocumentTitle('Unsubscribe');
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const link = useUnsubscribeLink(token);
  const unsubscribe = useUnsubscribe();

  let content;
  if (token === '' || link.isError) {
    content = (
      <p
        role="alert"
        className="flex items-start gap-2 rounded-card border border-destructive/30 bg-card p-6"
      >
        <AlertTriangle aria-hidden className="mt-0.5 size-5 shrink-0 text-destructive" />
        <span>
          {token === '' ? UNSUBSCRIBE_LINK_INVALID : errorMessage(link.error)} (Signed in, open your{' '}
          {settingsLink}.)
        </span>
      </p>
    );
  } else if (link.isPending) {
    content = (
      <div aria-busy="true" className="grid gap-3">
        <span role="status" className="sr-only">
          Reading the link
        </span>
        <Skeleton className="h-24 rounded-card" />
      </div>
    );
  } else if (unsubscribe.isSuccess) {
    content = (
      <p role="status" className="flex items-start gap-2 rounded-card border bg-card p-6">
        <CheckCircle2 aria-hidden className="mt-0.5 size-5 shrink-0 text-emerald-700" />
        <span>
          Done: {lowerFirst(unsubscribe.data.description)} are off. You can turn them on again in your{' '}
          {settingsLink}.
        </span>
      </p>
    );
  } else {
    content = (
      <div className="grid justify-items-start gap-4 rounded-card border bg-card p-6">
        <p className="flex items-start gap-2">
          <MailX aria-hidden className="mt-0.5 size-5 shrink-0 text-muted-foreground" />
          <span>
            Turn off <strong className="[overflow-wrap:anywhere]">{lowerFirst(link.data.description)}</strong>
            ? Your other alerts stay as they are.
          </span>
        </p>
        <Button
          aria-busy={unsubscribe.isPending}
          onClick={() => {
            if (!unsubscribe.isPending) unsubscribe.mutate(token);
          }}
        >
          {unsubscribe.isPending && <LoaderCircle aria-hidden className="animate-spin" />}
          Unsubscribe
        </Button>
        {unsubscribe.isError && (
          <p role="alert" className="text-sm text-destructive">
            Could not unsubscribe: {errorMessage(unsubscribe.error)}
          </p>
        )}
      </div>
    );
  }

  return (
    <div className="mx-auto grid w-full max-w-xl gap-6 px-4 py-8 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight">Unsubscribe</h1>
      {content}
    </div>
  );
}
