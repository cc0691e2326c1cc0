import { Card, CardContent } from '#client/components/ui/card.tsx';
import { PageSpinner } from '#client/components/ui/spinner.tsx';
import { useDocumentTitle } from '#client/lib/use-document-title.ts';
import { useUser } from '#client/features/auth/index.ts';
import { UploadForm } from '../components/upload-form';

/** /upload (spec 2): behind RequireAuth, which sends a signed-out visitor to /auth. */
export function UploadPage() {
  useDocumentTitle('Upload a New Video');
  const { data: user } = useUser();
  if (!user) return <PageSpinner label="Checking your session" />;
  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-8 sm:px-6 lg:py-12">
      <div className="grid gap-1">
        <h1 className="text-3xl font-bold tracking-tight">Upload a New Video</h1>
        <p className="text-muted-foreground">
          Share a preview of your pick. Buyers see your winning selections after they pay.
        </p>
      </div>
      <Card>
        <CardContent className="p-5 sm:p-8">
          <UploadForm userId={user.id} />
        </CardContent>
      </Card>
    </div>
  );
}
