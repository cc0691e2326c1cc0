import { useMemo, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { LoaderCircle } from 'lucide-react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { CATEGORIES } from '#common/constants.js';
import { legsCategory } from '#common/pick-category.js';
import { giveawayMessage, giveawayPhrases, isGiveawayMessage } from '#common/pick-giveaway.js';
import { KEEP_LEGS_MESSAGE, type Leg } from '#common/schemas/picks.js';
import { FormLegsSchema, pickLegsProblem } from '#common/schemas/uploads.js';
import {
  DESCRIPTION_MAX_LENGTH,
  PriceSchema,
  SELECTIONS_MAX_LENGTH,
  TITLE_MAX_LENGTH,
  VideoDetailsSchema,
  type Video,
  type VideoUpdate,
} from '#common/schemas/videos.js';
import { Button, buttonClasses } from '#client/components/ui/button.tsx';
import { FormField } from '#client/components/ui/form-field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { NativeSelect } from '#client/components/ui/native-select.tsx';
import { Textarea } from '#client/components/ui/textarea.tsx';
import { toast } from '#client/components/ui/use-toast.ts';
import { errorMessage, errorStatus } from '#client/lib/error-message.ts';
import {
  GiveawayNotice,
  LegsEditor,
  OPEN_LEG_MESSAGE,
  type PickLegsValue,
} from '#client/features/picks/index.ts';
import { useUpdateVideo } from '../api/update-video';

/**
 * The upload rules (VideoDetailsSchema), with spec 5's price input: whole dollars, at least $1. A price
 * that already has cents (the schema allows $0.99 and cents) may be kept as it is. The legs
 * with the upload form's rules, checked only while they can still change.
 */
function editVideoSchema(
  current: { price: number; title: string; description: string; legs: readonly Leg[] },
  legsEditable: boolean,
  sealed: boolean,
) {
  const currentPrice = current.price;
  return VideoDetailsSchema.extend({
    price: PriceSchema.refine((price) => price === currentPrice || price >= 1, {
      message: 'Price must be at least $1',
    }).refine((price) => price === currentPrice || Number.isInteger(price), {
      message: 'Enter the price in whole dollars',
    }),
    legs: FormLegsSchema,
    parlay: z.boolean(),
  }).superRefine((value, ctx) => {
    for (const field of editGiveawayFields(current, value)) {
      const phrases = giveawayPhrases(value[field], value.legs);
      if (phrases.length)
        ctx.addIssue({ code: 'custom', path: [field], message: giveawayMessage(field, phrases) });
    }
    if (!legsEditable) return;
    // A sealed pick may change its legs while open, not drop them all (the server refuses it the same way).
    const problem = sealed && value.legs.length === 0 ? KEEP_LEGS_MESSAGE : pickLegsProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', path: ['legs'], message: problem });
  });
}
type EditVideoSchema = ReturnType<typeof editVideoSchema>;

/**
 * docs/decisions/028, as the server applies it: a changed title or description is checked against the legs,
 * and changed legs against both; text written before the rule is left alone while nothing touches it.
 */
function editGiveawayFields(
  current: { title: string; description: string; legs: readonly Leg[] },
  value: { title: string; description: string; legs: readonly Leg[] },
): ('title' | 'description')[] {
  const legsChanged = JSON.stringify(value.legs) !== JSON.stringify(current.legs);
  return (['title', 'description'] as const).filter(
    (field) => legsChanged || value[field].trim() !== current[field].trim(),
  );
}
type EditVideoInput = z.input<EditVideoSchema>;
type EditVideoValues = z.output<EditVideoSchema>;

/** Admins moderate picks but do not write them: the selections and legs are the capper's word alone. */
export const ADMIN_NOT_AUTHOR_TEXT =
  "Admins moderate picks but do not write them: only the capper can change a pick's selections or legs.";

/** Why the legs can no longer change, or undefined while they can. */
function legsLockedReason(video: Video): string | undefined {
  if (!video.isOwner) return ADMIN_NOT_AUTHOR_TEXT;
  if (!video.pick || video.pick.status === 'open') return undefined;
  return video.pick.status === 'graded'
    ? 'This pick has been graded: its legs are sealed for good. Title, description and price can still change.'
    : 'The first game of this pick has started: its legs are sealed for good. Title, description and price can still change.';
}

const sameLegs = (a: PickLegsValue, b: PickLegsValue) =>
  a.parlay === b.parlay && JSON.stringify(a.legs) === JSON.stringify(b.legs);

export function EditVideoForm({
  video,
  pick,
  onSaved,
}: {
  video: Video;
  /** The pick's current legs (none for an unverified video). */
  pick: PickLegsValue;
  onSaved: () => void;
}) {
  const update = useUpdateVideo();
  const queryClient = useQueryClient();
  const lockedReason = legsLockedReason(video);
  const sealed = Boolean(video.pick);
  const schema = useMemo(
    () =>
      editVideoSchema(
        { price: video.price, title: video.title, description: video.description, legs: pick.legs },
        !lockedReason,
        sealed,
      ),
    [video.price, video.title, video.description, pick.legs, lockedReason, sealed],
  );
  // A leg still open in its form is neither sent nor silently dropped; the server's 409 is shown.
  const [legOpen, setLegOpen] = useState(false);
  const [legsNotice, setLegsNotice] = useState<string | undefined>(undefined);
  const {
    register,
    handleSubmit,
    setValue,
    control,
    formState: { errors, isSubmitted },
  } = useForm<EditVideoInput, unknown, EditVideoValues>({
    resolver: zodResolver(schema),
    defaultValues: {
      title: video.title,
      description: video.description,
      emailInformation: video.emailInformation ?? '',
      price: video.price,
      category:
        legsCategory(pick.legs) ??
        ((CATEGORIES as readonly string[]).includes(video.category)
          ? (video.category as EditVideoInput['category'])
          : undefined),
      legs: pick.legs,
      parlay: pick.parlay,
    },
  });
  // The editor stores only legs its form has checked (LegInputSchema's output).
  const legs = useWatch({ control, name: 'legs' }) as Leg[];
  const parlay = useWatch({ control, name: 'parlay' });
  // docs/decisions/028: the words that give the sealed pick away, said as the capper types.
  const title = useWatch({ control, name: 'title' }) ?? '';
  const description = useWatch({ control, name: 'description' }) ?? '';
  const checked = editGiveawayFields(
    { title: video.title, description: video.description, legs: pick.legs },
    { title, description, legs },
  );
  const titleGiveaway = checked.includes('title') ? giveawayPhrases(title, legs) : [];
  const descriptionGiveaway = checked.includes('description') ? giveawayPhrases(description, legs) : [];
  const ownError = (message: string | undefined) => (isGiveawayMessage(message) ? undefined : message);
  // A pick with legs is filed by its legs (read-only here, derived again by the server).
  const legsLeague = legsCategory(legs);

  const changeLegs = (next: PickLegsValue) => {
    setLegsNotice(undefined);
    const category = legsCategory(next.legs);
    if (category) setValue('category', category);
    setValue('legs', next.legs, { shouldValidate: isSubmitted });
    setValue('parlay', next.parlay, { shouldValidate: isSubmitted });
  };

  const submit = handleSubmit(({ legs: nextLegs, parlay: nextParlay, emailInformation, ...details }) => {
    // Only a change of the legs or selections is sent: an unchanged pick keeps its sealed version, and an
    // admin's edit of the title or price never touches what the capper sealed (the server refuses that).
    const legsChanged = !lockedReason && !sameLegs({ legs: nextLegs, parlay: nextParlay }, pick);
    const selectionsChanged = video.isOwner && emailInformation !== (video.emailInformation ?? '');
    const changes: VideoUpdate = {
      ...details,
      ...(selectionsChanged && { emailInformation }),
      ...(legsChanged && { legs: nextLegs, parlay: nextParlay }),
    };
    update.mutate(
      { id: video.id, changes },
      {
        onSuccess: () => {
          toast({ title: 'Video updated', description: 'Your changes have been saved.', variant: 'success' });
          // A new version of the pick: its public view and its legs.
          void queryClient.invalidateQueries({ queryKey: ['/api/picks', video.id] });
          if (legsChanged) void queryClient.invalidateQueries({ queryKey: ['/api/events'] });
          onSaved();
        },
        onError: (error) => {
          // Sold or started since the page was opened: the server says so, beside the legs.
          if (errorStatus(error) === 409) setLegsNotice(errorMessage(error));
          toast({
            title: 'Could not save your changes',
            description: errorMessage(error),
            variant: 'destructive',
          });
        },
      },
    );
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (legOpen) {
      event.preventDefault();
      setLegsNotice(OPEN_LEG_MESSAGE);
      return;
    }
    void submit(event);
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Edit video" className="grid gap-5">
      <div className="grid content-start">
        <FormField label="Title" error={ownError(errors.title?.message)}>
          <Input
            maxLength={TITLE_MAX_LENGTH}
            {...(titleGiveaway.length ? { 'aria-invalid': true } : {})}
            {...register('title')}
          />
        </FormField>
        <GiveawayNotice id="edit-title-giveaway" field="title" phrases={titleGiveaway} />
      </div>
      <div className="grid content-start">
        <FormField
          label="Description"
          hint="The game or package details everyone sees."
          error={ownError(errors.description?.message)}
        >
          <Textarea
            rows={5}
            maxLength={DESCRIPTION_MAX_LENGTH}
            {...(descriptionGiveaway.length ? { 'aria-invalid': true } : {})}
            {...register('description')}
          />
        </FormField>
        <GiveawayNotice id="edit-description-giveaway" field="description" phrases={descriptionGiveaway} />
      </div>
      <FormField
        label="Winning selections"
        hint={video.isOwner ? 'Shown only to buyers of this video (and to you).' : ADMIN_NOT_AUTHOR_TEXT}
        error={errors.emailInformation?.message}
      >
        <Textarea
          rows={5}
          maxLength={SELECTIONS_MAX_LENGTH}
          readOnly={!video.isOwner}
          className={video.isOwner ? undefined : 'bg-muted'}
          {...register('emailInformation')}
        />
      </FormField>
      <LegsEditor
        value={{ legs, parlay }}
        onChange={changeLegs}
        onEditingChange={(open) => {
          setLegOpen(open);
          if (!open) setLegsNotice(undefined);
        }}
        error={legsNotice ?? errors.legs?.message ?? errors.legs?.root?.message}
        disabled={update.isPending}
        lockedReason={lockedReason}
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField label="Price ($)" hint="minimum $1" error={errors.price?.message}>
          <Input type="number" inputMode="numeric" min={1} step={1} {...register('price')} />
        </FormField>
        {legsLeague ? (
          <FormField label="Category" hint="From the legs: their league, or Parlays across leagues.">
            <Input readOnly className="bg-muted" value={legsLeague} />
          </FormField>
        ) : (
          <FormField label="Category" error={errors.category?.message}>
            <NativeSelect {...register('category')}>
              {CATEGORIES.map((category) => (
                <option key={category} value={category}>
                  {category}
                </option>
              ))}
            </NativeSelect>
          </FormField>
        )}
      </div>
      <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
        <Link href={`/video/${video.id}`} className={buttonClasses('outline', 'lg')}>
          Cancel
        </Link>
        <Button type="submit" size="lg" disabled={update.isPending}>
          {update.isPending ? (
            <>
              <LoaderCircle aria-hidden className="animate-spin" />
              Saving...
            </>
          ) : (
            'Save changes'
          )}
        </Button>
      </div>
    </form>
  );
}
