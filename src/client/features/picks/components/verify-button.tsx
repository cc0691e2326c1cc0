import { useState } from 'react';
import { LoaderCircle, ShieldCheck, ShieldX } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import { errorMessage } from '#client/lib/error-message.ts';
import { verifyCommitment, type Verification } from '../lib/verify';

type State =
  | { step: 'idle' }
  | { step: 'checking' }
  | { step: 'done'; result: Verification }
  | { step: 'failed'; message: string };

/**
 * Recomputes the commitment in this browser (Web Crypto) from the revealed sealed pick and says
 * whether it equals the commitment shown before the games.
 */
export function VerifyButton({ sealed, expected }: { sealed: unknown; expected: string }) {
  const [state, setState] = useState<State>({ step: 'idle' });

  const verify = async () => {
    setState({ step: 'checking' });
    try {
      setState({ step: 'done', result: await verifyCommitment(sealed, expected) });
    } catch (error) {
      setState({ step: 'failed', message: errorMessage(error) });
    }
  };

  return (
    <div className="grid gap-2">
      <div className="flex flex-wrap items-center gap-3">
        <Button type="button" onClick={() => void verify()} disabled={state.step === 'checking'}>
          {state.step === 'checking' ? (
            <LoaderCircle aria-hidden className="animate-spin" />
          ) : (
            <ShieldCheck aria-hidden />
          )}
          Verify
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">
        Verify hashes the revealed pick (legs, selections and salt) with SHA-256 in your browser and compares
        it with the commitment published when the pick was posted.
      </p>
      <div aria-live="polite" data-testid="verify-result">
        {state.step === 'done' && <VerifyOutcome result={state.result} />}
        {state.step === 'failed' && (
          <p className="text-sm font-semibold text-destructive">Could not verify: {state.message}</p>
        )}
      </div>
    </div>
  );
}

function VerifyOutcome({ result }: { result: Verification }) {
  const matched = result.status === 'matched';
  return (
    <div
      className={
        matched
          ? 'grid gap-1 rounded-lg border border-primary/40 bg-primary/5 p-3 text-sm'
          : 'grid gap-1 rounded-lg border border-destructive/40 bg-destructive/5 p-3 text-sm'
      }
    >
      <p
        className={
          matched
            ? 'flex items-center gap-2 font-semibold text-primary'
            : 'flex items-center gap-2 font-semibold text-destructive'
        }
      >
        {matched ? (
          <ShieldCheck aria-hidden className="size-4" />
        ) : (
          <ShieldX aria-hidden className="size-4" />
        )}
        {matched
          ? 'Matches: this is the pick that was sealed when it was posted.'
          : 'Does not match: the revealed pick is not the one that was sealed.'}
      </p>
      <p className="grid gap-0.5 text-xs text-muted-foreground">
        <span>Computed here:</span>
        <code className="font-mono break-all text-foreground">{result.computed}</code>
        {!matched && (
          <>
            <span>Published before:</span>
            <code className="font-mono break-all text-foreground">{result.expected}</code>
          </>
        )}
      </p>
    </div>
  );
}
