import { useEffect, useRef, useState, type ComponentProps, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { zodResolver } from '@hookform/resolvers/zod';
import { LoaderCircle, Upload as UploadIcon, X } from 'lucide-react';
import { useForm, useWatch } from 'react-hook-form';
import { useLocation } from 'wouter';
import { DEFAULT_CATEGORY, REDIRECT_AFTER_UPLOAD_MS } from '#common/constants.js';
import {
  UploadFormSchema,
  type UploadForm as UploadFormValues,
  type UploadFormInput,
} from '#common/schemas/uploads.js';
import type { Leg } from '#common/schemas/picks.js';
import { legsCategory } from '#common/pick-category.js';
import { giveawayPhrases, isGiveawayMessage } from '#common/pick-giveaway.js';
import { ACCEPTED_VIDEO_URL_FORMATS } from '#common/video-links.js';
import { Button } from '#client/components/ui/button.tsx';
import { FormField } from '#client/components/ui/form-field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { toast } from '#client/components/ui/use-toast.ts';
import { cn } from '#client/lib/cn.ts';
import {
  GiveawayNotice,
  LegsEditor,
  OPEN_LEG_MESSAGE,
  type PickLegsValue,
} from '#client/features/picks/index.ts';
import { readDuration } from '../api/read-duration';
import { friendlyUploadMessage } from '../api/upload-errors';
import { useUploadVideo, USER_CANCELLED, type UploadPhase } from '../api/upload-video';
import { UploadProgress } from './upload-progress';

function TextArea({ className, ...props }: ComponentProps<'textarea'>) {
  return (
    <textarea
      className={cn(
        'min-h-24 w-full rounded-lg border border-input bg-card px-3 py-2 text-sm text-foreground shadow-xs',
        'placeholder:text-muted-foreground/80 focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0',
        'disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-destructive',
        className,
      )}
      {...props}
    />
  );
}

const EMPTY: UploadFormInput = {
  title: '',
  description: '',
  emailInformation: '',
  price: '',
  category: DEFAULT_CATEGORY,
  videoFile: undefined,
  externalVideoUrl: '',
  legs: [],
  parlay: false,
};

/** The legs' message wherever the resolver put it: on the list, or on one leg's field. */
function legsMessage(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const { message, root } = error as { message?: unknown; root?: { message?: unknown } };
  if (typeof message === 'string') return message;
  if (typeof root?.message === 'string') return root.message;
  for (const item of Object.values(error)) {
    const nested = legsMessage(item);
    if (nested) return nested;
  }
  return undefined;
}

function formatSize(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** spec 5 'Upload form', spec 4 'Upload' states, spec 8 'Upload' messages. */
export function UploadForm({ userId }: { userId: number }) {
  const [, navigate] = useLocation();
  const [phase, setPhase] = useState<UploadPhase | null>(null);
  const [duration, setDuration] = useState<number | undefined>(undefined);
  const fileInput = useRef<HTMLInputElement>(null);
  const abort = useRef<AbortController | null>(null);
  const redirect = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [redirecting, setRedirecting] = useState(false);
  // A leg still open in its form is neither sent nor silently dropped.
  const [legOpen, setLegOpen] = useState(false);
  const [legsNotice, setLegsNotice] = useState<string | undefined>(undefined);
  // The percentage never goes back within one upload (a retried tus chunk is sent again, the
  // simulated ticker gives way to the real bytes); the next upload starts from nothing.
  const upload = useUploadVideo((next) => {
    const apply = () =>
      setPhase((current) =>
        current?.phase === 'uploading' && next.phase === 'uploading' && next.percent < current.percent
          ? current
          : next,
      );
    // The last byte sent is drawn when it happens: a quick answer from the server would otherwise be batched
    // into the same render, and 100% never shown before 'Processing' (spec 4). Called from upload events only.
    if (next.phase === 'uploading' && next.percent === 100) flushSync(apply);
    else apply();
  });

  const {
    register,
    handleSubmit,
    setValue,
    reset,
    control,
    formState: { errors, isSubmitted },
  } = useForm<UploadFormInput, unknown, UploadFormValues>({
    resolver: zodResolver(UploadFormSchema),
    defaultValues: EMPTY,
  });
  const file = useWatch({ control, name: 'videoFile' });
  // The editor stores only legs its form has checked (LegInputSchema's output).
  const legs = useWatch({ control, name: 'legs' }) as Leg[] | undefined;
  const parlay = useWatch({ control, name: 'parlay' }) ?? false;
  // docs/decisions/028: the words that give the sealed pick away, said as the capper types (the schema refuses them).
  const title = useWatch({ control, name: 'title' });
  const description = useWatch({ control, name: 'description' });
  const titleGiveaway = giveawayPhrases(title ?? '', legs ?? []);
  const descriptionGiveaway = giveawayPhrases(description ?? '', legs ?? []);
  const ownError = (message: string | undefined) => (isGiveawayMessage(message) ? undefined : message);
  const busy = upload.isPending || redirecting;

  useEffect(
    () => () => {
      abort.current?.abort();
      if (redirect.current) clearTimeout(redirect.current);
    },
    [],
  );

  const chooseFile = (picked: File | undefined) => {
    setValue('videoFile', picked, { shouldValidate: true });
    setDuration(undefined);
    if (!picked) return;
    // spec 5: choosing a file clears the external URL.
    setValue('externalVideoUrl', '', { shouldValidate: false });
    void readDuration(picked).then((seconds) => setDuration(seconds));
  };

  const clearFile = () => {
    if (fileInput.current) fileInput.current.value = '';
    setValue('videoFile', undefined, { shouldValidate: false });
    setDuration(undefined);
  };

  const urlField = register('externalVideoUrl');

  const changeLegs = (next: PickLegsValue) => {
    setLegsNotice(undefined);
    // decisions 'Categories of verified picks': the legs' league, 'Parlays' across leagues, else General.
    setValue('category', legsCategory(next.legs) ?? DEFAULT_CATEGORY);
    setValue('legs', next.legs, { shouldValidate: isSubmitted });
    setValue('parlay', next.parlay, { shouldValidate: isSubmitted });
  };

  const send = async (values: UploadFormValues) => {
    const controller = new AbortController();
    abort.current = controller;
    setPhase({ phase: 'uploading', percent: 0, real: false });
    const picked = values.videoFile instanceof File ? values.videoFile : undefined;
    try {
      await upload.mutateAsync({
        title: values.title,
        description: values.description,
        emailInformation: values.emailInformation,
        price: values.price,
        category: values.category,
        duration: picked ? duration : undefined,
        userId,
        file: picked,
        externalVideoUrl: picked ? undefined : values.externalVideoUrl,
        legs: values.legs,
        parlay: values.parlay,
        signal: controller.signal,
      });
    } catch (error) {
      setPhase(null);
      if (controller.signal.aborted) return;
      toast({
        title: 'Upload failed',
        description: friendlyUploadMessage(error instanceof Error ? error.message : String(error)),
        variant: 'destructive',
      });
      return;
    } finally {
      abort.current = null;
    }
    toast({
      title: 'Upload successful',
      description: picked ? 'Your video is being prepared.' : 'Your video is in the catalog.',
      variant: 'success',
    });
    reset(EMPTY);
    clearFile();
    // What the server does now stays in view until the page moves on, rather than a blank form.
    setPhase({ phase: 'uploaded', processing: picked !== undefined });
    // spec 4: the form resets, then the user lands on / a second later.
    setRedirecting(true);
    redirect.current = setTimeout(() => navigate('/'), REDIRECT_AFTER_UPLOAD_MS);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (legOpen) {
      event.preventDefault();
      setLegsNotice(OPEN_LEG_MESSAGE);
      return;
    }
    void handleSubmit(send)(event);
  };

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-label="Upload a video">
      <div className="grid content-start">
        <FormField label="Title" error={ownError(errors.title?.message)}>
          <Input
            disabled={busy}
            {...(titleGiveaway.length ? { 'aria-invalid': true } : {})}
            {...register('title')}
          />
        </FormField>
        <GiveawayNotice id="upload-title-giveaway" field="title" phrases={titleGiveaway} />
      </div>
      <div className="grid content-start">
        <FormField
          label="Description"
          error={ownError(errors.description?.message)}
          hint="The game or package details."
        >
          <TextArea
            rows={4}
            disabled={busy}
            {...(descriptionGiveaway.length ? { 'aria-invalid': true } : {})}
            {...register('description')}
          />
        </FormField>
        <GiveawayNotice id="upload-description-giveaway" field="description" phrases={descriptionGiveaway} />
      </div>
      <FormField
        label="Winning selections"
        error={errors.emailInformation?.message}
        hint="Shown only to buyers, after they pay."
      >
        <TextArea rows={4} disabled={busy} {...register('emailInformation')} />
      </FormField>
      <LegsEditor
        value={{ legs: legs ?? [], parlay }}
        onChange={changeLegs}
        onEditingChange={(open) => {
          setLegOpen(open);
          if (!open) setLegsNotice(undefined);
        }}
        error={legsNotice ?? legsMessage(errors.legs)}
        disabled={busy}
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField label="Price ($)" error={errors.price?.message} hint="minimum $1">
          <Input type="number" inputMode="numeric" min={1} step={1} disabled={busy} {...register('price')} />
        </FormField>
        <FormField
          label="Category"
          hint="From the legs: their league, or Parlays across leagues; General without legs."
        >
          <Input readOnly className="bg-muted" {...register('category')} />
        </FormField>
      </div>

      <fieldset className="grid gap-4 rounded-card border p-4" disabled={busy}>
        <legend className="px-1 text-sm font-semibold">Video</legend>
        <FormField
          label="MOV file"
          error={errors.videoFile?.message}
          hint="MOV only, up to 15GB. Files above 50MB are sent in resumable 2MB chunks."
        >
          <Input
            ref={fileInput}
            type="file"
            accept=".mov,video/quicktime"
            className="h-auto py-2 file:mr-3 file:rounded-md file:border-0 file:bg-muted file:px-3 file:py-1 file:text-sm file:font-medium"
            onChange={(event) => chooseFile(event.target.files?.[0])}
          />
        </FormField>
        {file && (
          <p
            className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground"
            data-testid="chosen-file"
          >
            <span className="font-medium text-foreground">{file.name}</span>
            <span>{formatSize(file.size)}</span>
            {duration !== undefined && (
              <span>
                {Math.floor(duration / 60)}:{String(duration % 60).padStart(2, '0')}
              </span>
            )}
            <Button variant="ghost" size="sm" onClick={clearFile} aria-label="Remove the chosen file">
              <X aria-hidden /> Remove
            </Button>
          </p>
        )}
        <p className="text-center text-xs font-semibold tracking-wide text-muted-foreground uppercase">or</p>
        <FormField
          label="External video URL"
          error={errors.externalVideoUrl?.message}
          hint={
            <span className="grid gap-0.5">
              {ACCEPTED_VIDEO_URL_FORMATS.map(({ site, formats }) => (
                <span key={site}>
                  <span className="font-medium">{site}:</span> {formats.join(', ')}
                </span>
              ))}
            </span>
          }
        >
          <Input
            type="url"
            inputMode="url"
            placeholder="https://…"
            autoComplete="off"
            spellCheck={false}
            {...urlField}
            onChange={(event) => {
              void urlField.onChange(event);
              // spec 5: entering a URL clears the file.
              if (event.target.value) clearFile();
            }}
          />
        </FormField>
      </fieldset>

      {phase && <UploadProgress phase={phase} />}

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        {upload.isPending && (
          <Button variant="outline" size="lg" onClick={() => abort.current?.abort(USER_CANCELLED)}>
            Cancel
          </Button>
        )}
        <Button type="submit" size="lg" disabled={busy}>
          {upload.isPending ? (
            <>
              <LoaderCircle aria-hidden className="animate-spin" />
              Uploading...
            </>
          ) : (
            <>
              <UploadIcon aria-hidden />
              Upload Video
            </>
          )}
        </Button>
      </div>
    </form>
  );
}
