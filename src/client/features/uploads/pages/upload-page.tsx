import { PlaceholderPage } from '../../../components/placeholder-page';

export function UploadPage() {
  return <PlaceholderPage title="Upload a New Video" />;
}
