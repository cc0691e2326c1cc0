import { useSearchParams } from 'wouter';
import { PlaceholderPage } from '../../../components/placeholder-page';

export function VideosPage() {
  const [params] = useSearchParams();
  const query = params.get('q')?.trim();
  return (
    <PlaceholderPage title="All Available Selections">
      {query ? <p>Search results for &ldquo;{query}&rdquo;</p> : null}
    </PlaceholderPage>
  );
}
