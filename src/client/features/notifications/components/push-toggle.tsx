import { useEffect, useState } from 'react';
import { BellOff, BellRing, LoaderCircle } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import { errorMessage } from '#client/lib/error-message.ts';
import { pushState, turnOffPush, turnOnPush, type PushState } from '../api/push-alerts';

const EXPLAIN: Record<PushState, string> = {
  unsupported:
    'This browser cannot show push alerts here (it needs a browser with Web Push, on https; on an iPhone, add PickReel to the home screen first).',
  denied:
    "Notifications are blocked for this site. Allow them in your browser's site settings, then turn push alerts on here.",
  off: 'Get an alert on this device when a capper you follow posts a pick, even with PickReel closed.',
  on: 'Push alerts are on in this browser.',
};

/** Push alerts in this browser: on only after a press, with the permission prompt after it. */
export function PushToggle() {
  const [state, setState] = useState<PushState | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    pushState()
      .then((value) => live && setState(value))
      .catch(() => live && setState('unsupported'));
    return () => {
      live = false;
    };
  }, []);

  if (state === null) return null;

  const change = async (action: () => Promise<PushState>) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      setState(await action());
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section
      aria-labelledby="push-alerts-heading"
      className="flex flex-wrap items-center justify-between gap-3 rounded-card border bg-card p-4"
    >
      <div className="grid min-w-0 flex-1 gap-1">
        <h2 id="push-alerts-heading" className="font-semibold">
          Push alerts
        </h2>
        <p className="text-sm text-muted-foreground" data-testid="push-state" data-state={state}>
          {EXPLAIN[state]}
        </p>
        {error && (
          <p role="alert" className="text-sm text-destructive">
            Could not change push alerts: {error}
          </p>
        )}
      </div>
      {state === 'on' ? (
        <Button variant="outline" aria-busy={busy} onClick={() => void change(turnOffPush)}>
          {busy ? <LoaderCircle aria-hidden className="animate-spin" /> : <BellOff aria-hidden />}
          Turn off push alerts
        </Button>
      ) : state === 'off' ? (
        <Button aria-busy={busy} onClick={() => void change(turnOnPush)}>
          {busy ? <LoaderCircle aria-hidden className="animate-spin" /> : <BellRing aria-hidden />}
          Turn on push alerts
        </Button>
      ) : null}
    </section>
  );
}
