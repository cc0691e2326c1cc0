import { Link, useLocation, useParams } from 'wouter';
import { Lock } from 'lucide-react';
import { buttonClasses } from '#client/components/ui/button.tsx';
import { Card, CardContent } from '#client/components/ui/card.tsx';
import { PageSpinner } from '#client/components/ui/spinner.tsx';
import { errorMessage, errorStatus } from '#client/lib/error-message.ts';
import { useDocumentTitle } from '#client/lib/use-document-title.ts';
import { useUser } from '#client/features/auth/index.ts';
import { legsFromSealed, usePickLegs, type PickLegsValue } from '#client/features/picks/index.ts';
import { parseVideoId, useVideo } from '../api/get-video';
import { EditVideoForm } from '../components/edit-video-form';
import { VideoGridError } from '../components/video-grid';
import { VideoNotFound } from '../components/video-not-found';

/**
 * docs/product-decisions.md 'Screens the spec does not show': the owner (or an admin) edits a video's details; the
 * server refuses anyone else too.
 */
export function EditVideoPage() {
  const { id: segment } = useParams<{ id: string }>();
  const id = parseVideoId(segment);
  const { data: user } = useUser();
  const { data: video, isPending, isError, error } = useVideo(id);
  const [, navigate] = useLocation();
  const mayEdit = Boolean(video && (video.isOwner || user?.isAdmin));
  // The current legs (the same secret as the selections), for a verified pick only.
  const pickLegs = usePickLegs(id ?? 0, { enabled: mayEdit && Boolean(video?.pick) });
  const status = errorStatus(error);
  const notFound = id === null || status === 404 || status === 400;
  useDocumentTitle(notFound ? 'Video not found' : 'Edit Video');

  if (notFound) return <VideoNotFound />;
  if (isPending) return <PageSpinner label="Loading the video" />;
  if (isError) {
    return (
      <div className="mx-auto w-full max-w-2xl px-4 py-12">
        <VideoGridError>Could not load this video: {errorMessage(error)}</VideoGridError>
      </div>
    );
  }

  if (!mayEdit) {
    return (
      <div className="mx-auto flex min-h-[50vh] w-full max-w-xl flex-col items-center justify-center gap-5 px-4 text-center">
        <span className="inline-flex size-16 items-center justify-center rounded-2xl bg-muted text-muted-foreground">
          <Lock aria-hidden className="size-8" />
        </span>
        <h1 className="text-3xl font-bold tracking-tight">Edit Video</h1>
        <p role="alert" className="text-lg text-muted-foreground">
          You can only edit your own videos.
        </p>
        <Link href={`/video/${video.id}`} className={buttonClasses('primary', 'md')}>
          Back to the video
        </Link>
      </div>
    );
  }

  let pick: PickLegsValue | null = { legs: [], parlay: false };
  if (video.pick) {
    if (pickLegs.isPending) return <PageSpinner label="Loading the pick's legs" />;
    if (pickLegs.isError) {
      return (
        <div className="mx-auto w-full max-w-2xl px-4 py-12">
          <VideoGridError>Could not load this pick's legs: {errorMessage(pickLegs.error)}</VideoGridError>
        </div>
      );
    }
    const legs = legsFromSealed(pickLegs.data.legs);
    pick = legs && { legs, parlay: pickLegs.data.parlay };
  }
  if (!pick) {
    return (
      <div className="mx-auto w-full max-w-2xl px-4 py-12">
        <VideoGridError>This pick's legs could not be read. Please reload the page.</VideoGridError>
      </div>
    );
  }

  return (
    <div className="mx-auto grid w-full max-w-2xl gap-6 px-4 py-8 sm:px-6">
      <div className="grid gap-1.5">
        <h1 className="text-3xl font-bold tracking-tight">Edit Video</h1>
        <p className="text-muted-foreground">
          {video.isOwner ? 'Change what buyers see about ' : 'Editing as an admin: '}
          <span className="font-semibold text-foreground">{video.title}</span>
        </p>
      </div>
      <Card>
        <CardContent className="p-5 sm:p-8">
          <EditVideoForm
            // A new version of the legs (another tab's edit) starts the form afresh.
            key={pickLegs.data?.version ?? 0}
            video={video}
            pick={pick}
            onSaved={() => navigate(`/video/${video.id}`)}
          />
        </CardContent>
      </Card>
    </div>
  );
}
