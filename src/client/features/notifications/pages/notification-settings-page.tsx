import { Link } from 'wouter';
import { AlertTriangle, MailWarning } from 'lucide-react';
import {
  ALERT_CHANNELS,
  ALERT_KINDS,
  CHANNEL_LABELS,
  KIND_LABELS,
  type AlertChannel,
} from '#common/schemas/alert-preferences.js';
import { Button } from '#client/components/ui/button.tsx';
import { Skeleton } from '#client/components/ui/skeleton.tsx';
import { errorMessage } from '#client/lib/error-message.ts';
import { useDocumentTitle } from '#client/lib/use-document-title.ts';
import { useAlertPreferences, type AlertPreferences } from '../api/get-alert-preferences';
import { useUpdateAlertPreference } from '../api/update-alert-preferences';
import { useUpdateCapperAlerts } from '../api/update-capper-alerts';

const CHANNEL_NOTES: Record<AlertChannel, string> = {
  in_app: 'The bell and the notifications page.',
  email: 'Sent to your confirmed e-mail address.',
  push: 'Only on browsers where you turned push on.',
};

/** Which alerts reach you where: a switch per channel and kind, and per capper you follow. */
export function NotificationSettingsPage() {
  useDocumentTitle('Notification settings');
  const preferences = useAlertPreferences();
  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-8 sm:px-6">
      <header className="grid gap-1.5">
        <h1 className="text-3xl font-bold tracking-tight">Notification settings</h1>
        <p className="text-muted-foreground">
          Choose which alerts reach you, and where. Back to{' '}
          <Link href="/notifications" className="font-medium text-primary underline-offset-4 hover:underline">
            your notifications
          </Link>
          .
        </p>
      </header>
      {preferences.isPending ? (
        <div className="grid gap-3" aria-busy="true">
          <span role="status" className="sr-only">
            Loading notification settings
          </span>
          {Array.from({ length: 3 }, (_, index) => (
            <Skeleton key={index} className="h-32 rounded-card" />
          ))}
        </div>
      ) : preferences.isError ? (
        <div className="grid justify-items-start gap-4">
          <p
            role="alert"
            className="flex w-full items-center gap-2 rounded-card border border-destructive/30 bg-card p-6 text-destructive"
          >
            <AlertTriangle aria-hidden className="size-5 shrink-0" />
            Could not load your notification settings: {errorMessage(preferences.error)}
          </p>
          <Button variant="outline" onClick={() => void preferences.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <Settings preferences={preferences.data} />
      )}
    </div>
  );
}

function Settings({ preferences }: { preferences: AlertPreferences }) {
  const update = useUpdateAlertPreference();
  return (
    <>
      {!preferences.email.confirmed && (
        <p
          data-testid="email-unconfirmed"
          className="flex items-start gap-2 rounded-card border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950"
        >
          <MailWarning aria-hidden className="mt-0.5 size-4 shrink-0" />
          <span>
            E-mail alerts go only to a confirmed address.{' '}
            <Link href="/settings/profile" className="font-medium underline underline-offset-4">
              {preferences.email.address ? 'Confirm your e-mail address' : 'Add an e-mail address'}
            </Link>{' '}
            in your profile settings.
          </span>
        </p>
      )}
      <section aria-labelledby="channels-heading" className="grid gap-3">
        <h2 id="channels-heading" className="text-xl font-semibold">
          Alerts by channel
        </h2>
        <div className="grid gap-3 sm:grid-cols-3">
          {ALERT_CHANNELS.map((channel) => (
            <fieldset key={channel} className="grid gap-2 rounded-card border bg-card p-4">
              <legend className="px-1 font-semibold">{CHANNEL_LABELS[channel]}</legend>
              <p className="text-xs text-muted-foreground">{CHANNEL_NOTES[channel]}</p>
              {ALERT_KINDS.map((kind) => (
                <Switch
                  key={kind}
                  id={`alert-${channel}-${kind}`}
                  label={KIND_LABELS[kind]}
                  description={`${KIND_LABELS[kind]}: ${CHANNEL_LABELS[channel]}`}
                  checked={preferences.channels[channel][kind]}
                  onChange={(enabled) => update.mutate({ channel, kind, enabled })}
                />
              ))}
            </fieldset>
          ))}
        </div>
      </section>
      <CapperMutes preferences={preferences} />
    </>
  );
}

function CapperMutes({ preferences }: { preferences: AlertPreferences }) {
  const update = useUpdateCapperAlerts();
  return (
    <section aria-labelledby="cappers-heading" className="grid gap-3">
      <h2 id="cappers-heading" className="text-xl font-semibold">
        Cappers you follow
      </h2>
      {preferences.cappers.length === 0 ? (
        <p className="text-muted-foreground">
          You follow no capper yet.{' '}
          <Link href="/leaderboard" className="font-medium text-primary underline-offset-4 hover:underline">
            Find cappers on the leaderboard
          </Link>
        </p>
      ) : (
        <ul className="grid gap-3" aria-label="Alerts per capper">
          {preferences.cappers.map((capper) => {
            const name = capper.displayName?.trim() || capper.username;
            return (
              <li key={capper.username}>
                <fieldset className="grid gap-2 rounded-card border bg-card p-4">
                  <legend className="px-1 font-semibold [overflow-wrap:anywhere]">
                    <Link
                      href={`/cappers/${encodeURIComponent(capper.username)}`}
                      className="hover:underline"
                    >
                      {name}
                    </Link>
                    {!capper.following && (
                      <span className="ml-2 text-xs font-normal text-muted-foreground">not followed</span>
                    )}
                  </legend>
                  <div className="flex flex-wrap gap-x-6 gap-y-2">
                    {ALERT_CHANNELS.map((channel) => (
                      <Switch
                        key={channel}
                        id={`capper-${capper.username}-${channel}`}
                        label={CHANNEL_LABELS[channel]}
                        description={`${CHANNEL_LABELS[channel]} alerts from ${name}`}
                        checked={capper.channels[channel]}
                        onChange={(on) => update.mutate({ username: capper.username, channel, on })}
                      />
                    ))}
                  </div>
                </fieldset>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** A native checkbox announced as a switch: keyboard, labels and forms work as they always do. */
function Switch(props: {
  id: string;
  label: string;
  /** The full name read out (the label alone repeats across the groups). */
  description: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label htmlFor={props.id} className="flex min-h-11 cursor-pointer items-center justify-between gap-3">
      <span className="text-sm">{props.label}</span>
      <input
        id={props.id}
        type="checkbox"
        role="switch"
        aria-label={props.description}
        checked={props.checked}
        onChange={(event) => props.onChange(event.target.checked)}
        className="peer size-5 shrink-0 cursor-pointer accent-primary"
      />
    </label>
  );
}
