import { CheckCircle2, LoaderCircle } from 'lucide-react';
import type { UploadPhase } from '../api/upload-video';

function labelOf(phase: UploadPhase): string {
  if (phase.phase === 'uploading') return `Uploading… ${phase.percent}%`;
  return phase.processing ? 'Processing…' : 'Upload complete';
}

/**
 * spec 4 'Upload': the percentage of the bytes sent, up to 100, then what the server does with them: a
 * file is processed (its card shows how far), a link is ready. It stays until the page moves on.
 */
export function UploadProgress({ phase }: { phase: UploadPhase }) {
  const uploading = phase.phase === 'uploading';
  const percent = uploading ? phase.percent : 100;
  const label = labelOf(phase);
  return (
    <div className="grid gap-2" aria-live="polite" data-testid="upload-progress">
      <div className="flex items-center justify-between text-sm">
        <span className="flex items-center gap-2 font-medium">
          {phase.phase === 'uploaded' &&
            (phase.processing ? (
              <LoaderCircle aria-hidden className="size-4 animate-spin" />
            ) : (
              <CheckCircle2 aria-hidden className="size-4 text-primary" />
            ))}
          {label}
        </span>
        <span className="text-muted-foreground tabular-nums">{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-label="Upload progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={label}
        className="h-2.5 w-full overflow-hidden rounded-full bg-muted"
      >
        <div
          className={
            phase.phase === 'uploaded' && phase.processing
              ? 'h-full w-full animate-pulse bg-primary'
              : 'h-full bg-primary transition-[width] duration-300'
          }
          style={{ width: `${percent}%` }}
        />
      </div>
      {phase.phase === 'uploaded' && phase.processing && (
        <p className="text-sm text-muted-foreground">
          Uploaded. Your video is being prepared: its card shows how far along it is.
        </p>
      )}
    </div>
  );
}
