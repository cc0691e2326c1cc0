import { useId, useRef, useState, type ChangeEvent } from 'react';
import { Link, useSearch } from 'wouter';
import {
  AlertTriangle,
  CircleCheck,
  ExternalLink,
  LoaderCircle,
  MailCheck,
  Trash2,
  Upload,
} from 'lucide-react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  AVATAR_ACCEPT,
  AVATAR_FORMAT,
  AVATAR_MAX_BYTES,
  AVATAR_TOO_LARGE,
  BIO_MAX_LENGTH,
  DISPLAY_NAME_MAX_LENGTH,
  EmailUpdateSchema,
  ProfileUpdateSchema,
  type EmailUpdate,
  type Profile,
  type ProfileUpdate,
  type ProfileUpdateInput,
} from '#common/schemas/profile.js';
import { Avatar } from '#client/components/ui/avatar.tsx';
import { Button } from '#client/components/ui/button.tsx';
import { Card } from '#client/components/ui/card.tsx';
import { FormField } from '#client/components/ui/form-field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { Skeleton } from '#client/components/ui/skeleton.tsx';
import { Textarea } from '#client/components/ui/textarea.tsx';
import { toast } from '#client/components/ui/use-toast.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { useDocumentTitle } from '#client/lib/use-document-title.ts';
import { ManagePlans } from '#client/features/subscriptions/index.ts';
import { useProfile, useRemoveAvatar, useUpdateProfile, useUploadAvatar } from '../api/profile';
import { useUpdateEmail } from '../api/update-email';

const AVATAR_TYPES = new Set(AVATAR_ACCEPT.split(','));

/** /settings/profile: what a capper's public page shows of them — display name, bio and avatar. */
export function ProfileSettingsPage() {
  useDocumentTitle('Profile settings');
  const { data: profile, isPending, isError, error } = useProfile();
  return (
    <div className="mx-auto grid w-full max-w-2xl gap-8 px-4 py-8 sm:px-6">
      <div className="grid gap-2">
        <h1 className="text-3xl font-bold tracking-tight">Profile settings</h1>
        <p className="text-muted-foreground">
          What buyers see on your public page, beside your open picks and your verified record.
        </p>
        {profile && (
          <Link
            href={`/cappers/${encodeURIComponent(profile.username)}`}
            className="inline-flex w-fit items-center gap-1.5 font-medium text-primary underline-offset-4 hover:underline"
          >
            <ExternalLink aria-hidden className="size-4" />
            View your public page
          </Link>
        )}
      </div>
      {isPending ? (
        <div className="grid gap-4" aria-busy>
          <span className="sr-only" role="status">
            Loading your profile…
          </span>
          <Skeleton className="h-32 rounded-card" />
          <Skeleton className="h-64 rounded-card" />
        </div>
      ) : isError ? (
        <p
          role="alert"
          className="flex items-center gap-2 rounded-card border border-destructive/30 bg-card p-6 text-destructive"
        >
          <AlertTriangle aria-hidden className="size-5 shrink-0" />
          Could not load your profile: {errorMessage(error)}
        </p>
      ) : (
        <>
          <AvatarSettings profile={profile} />
          <DetailsForm profile={profile} />
          <EmailSettings profile={profile} />
          <ManagePlans username={profile.username} />
        </>
      )}
    </div>
  );
}

/** Checked here for a quick answer; the server checks the bytes themselves and the size again. */
function avatarProblem(file: File): string | null {
  if (file.size > AVATAR_MAX_BYTES) return AVATAR_TOO_LARGE;
  if (file.type && !AVATAR_TYPES.has(file.type)) return AVATAR_FORMAT;
  return null;
}

function AvatarSettings({ profile }: { profile: Profile }) {
  const upload = useUploadAvatar();
  const remove = useRemoveAvatar();
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const headingId = useId();
  const busy = upload.isPending || remove.isPending;

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // the same file may be chosen again after a refusal
    if (!file) return;
    const local = avatarProblem(file);
    setProblem(local);
    if (local) return;
    upload.mutate(file, {
      onSuccess: () => toast({ title: 'Avatar updated', variant: 'success' }),
      onError: (failure) => setProblem(errorMessage(failure)),
    });
  };

  return (
    <section aria-labelledby={headingId}>
      <Card className="grid gap-4 p-5">
        <h2 id={headingId} className="text-lg font-semibold tracking-tight">
          Avatar
        </h2>
        <div className="flex flex-wrap items-center gap-5">
          <span data-testid="settings-avatar" className="contents">
            <Avatar
              name={profile.displayName ?? profile.username}
              src={profile.avatarUrl}
              className="size-24 text-4xl"
            />
          </span>
          <div className="grid min-w-0 flex-1 gap-3">
            <FormField
              label="Upload a picture"
              hint="PNG, JPEG or WebP, up to 2 MB. It is shown as a square, cropped at its centre."
              error={problem ?? undefined}
            >
              <Input
                ref={input}
                type="file"
                accept={AVATAR_ACCEPT}
                disabled={busy}
                onChange={choose}
                className="h-auto py-2 file:mr-3 file:rounded-md file:border-0 file:bg-muted file:px-3 file:py-1 file:text-sm file:font-medium"
              />
            </FormField>
            <div className="flex flex-wrap items-center gap-3">
              {upload.isPending && (
                <span role="status" className="inline-flex items-center gap-2 text-sm text-muted-foreground">
                  <LoaderCircle aria-hidden className="size-4 animate-spin" />
                  Uploading…
                </span>
              )}
              {profile.avatarUrl && (
                <Button
                  variant="outline"
                  size="sm"
                  disabled={busy}
                  onClick={() =>
                    remove.mutate(undefined, {
                      onSuccess: () => {
                        setProblem(null);
                        toast({ title: 'Avatar removed', variant: 'success' });
                        input.current?.focus();
                      },
                      onError: (failure) => setProblem(errorMessage(failure)),
                    })
                  }
                >
                  <Trash2 aria-hidden />
                  Remove avatar
                </Button>
              )}
              {!profile.avatarUrl && !upload.isPending && (
                <span className="inline-flex items-center gap-1.5 text-sm text-muted-foreground">
                  <Upload aria-hidden className="size-4" />
                  No picture yet: your page shows your initial.
                </span>
              )}
            </div>
          </div>
        </div>
      </Card>
    </section>
  );
}

function DetailsForm({ profile }: { profile: Profile }) {
  const update = useUpdateProfile();
  const [failure, setFailure] = useState<string | null>(null);
  const headingId = useId();
  const {
    register,
    handleSubmit,
    control,
    reset,
    formState: { errors },
  } = useForm<ProfileUpdateInput, unknown, ProfileUpdate>({
    resolver: zodResolver(ProfileUpdateSchema),
    defaultValues: { displayName: profile.displayName ?? '', bio: profile.bio ?? '' },
  });
  const bio = useWatch({ control, name: 'bio' }) ?? '';

  const submit = handleSubmit((changes) => {
    setFailure(null);
    update.mutate(changes, {
      onSuccess: (saved) => {
        reset({ displayName: saved.displayName ?? '', bio: saved.bio ?? '' });
        toast({ title: 'Profile saved', description: 'Your public page shows it now.', variant: 'success' });
      },
      onError: (error) => setFailure(errorMessage(error)),
    });
  });

  return (
    <section aria-labelledby={headingId}>
      <Card className="p-5">
        <form onSubmit={submit} noValidate aria-labelledby={headingId} className="grid gap-5">
          <h2 id={headingId} className="text-lg font-semibold tracking-tight">
            Name and bio
          </h2>
          <FormField
            label="Display name"
            hint={`Shown instead of your username (@${profile.username}), up to ${DISPLAY_NAME_MAX_LENGTH} characters. Leave blank to show your username.`}
            error={errors.displayName?.message}
          >
            <Input autoComplete="nickname" {...register('displayName')} />
          </FormField>
          <FormField
            label="Bio"
            hint={`${bio.length} of ${BIO_MAX_LENGTH} characters: what you bet on and how.`}
            error={errors.bio?.message}
          >
            <Textarea rows={5} {...register('bio')} />
          </FormField>
          {failure && (
            <p role="alert" className="text-sm font-medium text-destructive">
              {failure}
            </p>
          )}
          <Button type="submit" className="justify-self-start" disabled={update.isPending}>
            {update.isPending && <LoaderCircle aria-hidden className="animate-spin" />}
            Save profile
          </Button>
        </form>
      </Card>
    </section>
  );
}

/** The account's address: kept private, confirmed through a link mailed to it before anything else is sent. */
function EmailSettings({ profile }: { profile: Profile }) {
  const update = useUpdateEmail();
  const [failure, setFailure] = useState<string | null>(null);
  const headingId = useId();
  // The confirmation link lands here with ?email=confirmed.
  const justConfirmed = new URLSearchParams(useSearch()).get('email') === 'confirmed';
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<EmailUpdate>({
    resolver: zodResolver(EmailUpdateSchema),
    defaultValues: { email: profile.pendingEmail ?? profile.email ?? '' },
  });

  const submit = handleSubmit((input) => {
    setFailure(null);
    update.mutate(input, {
      onSuccess: (saved) =>
        toast({
          title: saved.pendingEmail ? 'Confirmation sent' : 'E-mail unchanged',
          description: saved.pendingEmail
            ? `Open the link we sent to ${saved.pendingEmail} to confirm it.`
            : 'This address is already confirmed.',
          variant: 'success',
        }),
      onError: (error) => setFailure(errorMessage(error)),
    });
  });

  return (
    <section aria-labelledby={headingId}>
      <Card className="p-5">
        <form onSubmit={submit} noValidate aria-labelledby={headingId} className="grid gap-5">
          <h2 id={headingId} className="text-lg font-semibold tracking-tight">
            E-mail
          </h2>
          <div data-testid="email-state" role="status" className="grid gap-1 text-sm">
            {profile.email && profile.emailConfirmed && (
              <span className="inline-flex items-center gap-1.5 font-medium text-primary">
                <CircleCheck aria-hidden className="size-4 shrink-0" />
                {justConfirmed ? 'Confirmed: ' : 'Confirmed '}
                <span className="[overflow-wrap:anywhere]">{profile.email}</span>
              </span>
            )}
            {profile.pendingEmail && (
              <span className="inline-flex items-center gap-1.5 text-muted-foreground">
                <MailCheck aria-hidden className="size-4 shrink-0" />
                <span className="[overflow-wrap:anywhere]">
                  Confirmation sent to {profile.pendingEmail}. Open the link in that mail (valid 24 hours).
                </span>
              </span>
            )}
            {!profile.email && !profile.pendingEmail && (
              <span className="text-muted-foreground">No e-mail address yet.</span>
            )}
          </div>
          <FormField
            label="E-mail address"
            hint="Never shown on your page. We mail a link to confirm it; a new address replaces the old once confirmed."
            error={errors.email?.message}
          >
            <Input type="email" autoComplete="email" inputMode="email" {...register('email')} />
          </FormField>
          {failure && (
            <p role="alert" className="text-sm font-medium text-destructive">
              {failure}
            </p>
          )}
          <Button type="submit" className="justify-self-start" disabled={update.isPending}>
            {update.isPending && <LoaderCircle aria-hidden className="animate-spin" />}
            Send confirmation link
          </Button>
        </form>
      </Card>
    </section>
  );
}
