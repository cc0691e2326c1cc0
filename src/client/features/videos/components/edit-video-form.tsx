import { useMemo } from 'react';
import { Link } from 'wouter';
import { LoaderCircle } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { CATEGORIES } from '#common/constants.js';
import {
  DESCRIPTION_MAX_LENGTH,
  PriceSchema,
  SELECTIONS_MAX_LENGTH,
  TITLE_MAX_LENGTH,
  VideoDetailsSchema,
  type Video,
} from '#common/schemas/videos.js';
import { Button, buttonClasses } from '#client/components/ui/button.tsx';
import { FormField } from '#client/components/ui/form-field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { NativeSelect } from '#client/components/ui/native-select.tsx';
import { Textarea } from '#client/components/ui/textarea.tsx';
import { toast } from '#client/components/ui/use-toast.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { useUpdateVideo } from '../api/update-video';

/**
 * The upload rules (VideoDetailsSchema), with spec 5's price input: whole dollars, at least $1. A price
 * that already has cents (the schema allows $0.99 and cents) may be kept as it is.
 */
function editVideoSchema(currentPrice: number) {
  return VideoDetailsSchema.extend({
    price: PriceSchema.refine((price) => price === currentPrice || price >= 1, {
      message: 'Price must be at least $1',
    }).refine((price) => price === currentPrice || Number.isInteger(price), {
      message: 'Enter the price in whole dollars',
    }),
  });
}
type EditVideoSchema = ReturnType<typeof editVideoSchema>;
type EditVideoInput = z.input<EditVideoSchema>;
type EditVideoValues = z.output<EditVideoSchema>;

export function EditVideoForm({ video, onSaved }: { video: Video; onSaved: () => void }) {
  const update = useUpdateVideo();
  const schema = useMemo(() => editVideoSchema(video.price), [video.price]);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<EditVideoInput, unknown, EditVideoValues>({
    resolver: zodResolver(schema),
    defaultValues: {
      title: video.title,
      description: video.description,
      emailInformation: video.emailInformation ?? '',
      price: video.price,
      category: (CATEGORIES as readonly string[]).includes(video.category)
        ? (video.category as EditVideoInput['category'])
        : undefined,
    },
  });

  const onSubmit = handleSubmit((changes) =>
    update.mutate(
      { id: video.id, changes },
      {
        onSuccess: () => {
          toast({ title: 'Video updated', description: 'Your changes have been saved.', variant: 'success' });
          onSaved();
        },
        onError: (error) => {
          toast({
            title: 'Could not save your changes',
            description: errorMessage(error),
            variant: 'destructive',
          });
        },
      },
    ),
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Edit video" className="grid gap-5">
      <FormField label="Title" error={errors.title?.message}>
        <Input maxLength={TITLE_MAX_LENGTH} {...register('title')} />
      </FormField>
      <FormField
        label="Description"
        hint="The game or package details everyone sees."
        error={errors.description?.message}
      >
        <Textarea rows={5} maxLength={DESCRIPTION_MAX_LENGTH} {...register('description')} />
      </FormField>
      <FormField
        label="Winning selections"
        hint="Shown only to buyers of this video (and to you)."
        error={errors.emailInformation?.message}
      >
        <Textarea rows={5} maxLength={SELECTIONS_MAX_LENGTH} {...register('emailInformation')} />
      </FormField>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField label="Price ($)" hint="minimum $1" error={errors.price?.message}>
          <Input type="number" inputMode="numeric" min={1} step={1} {...register('price')} />
        </FormField>
        <FormField label="Category" error={errors.category?.message}>
          <NativeSelect {...register('category')}>
            {CATEGORIES.map((category) => (
              <option key={category} value={category}>
                {category}
              </option>
            ))}
          </NativeSelect>
        </FormField>
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
