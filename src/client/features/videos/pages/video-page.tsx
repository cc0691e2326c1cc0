import { useParams } from 'wouter';
import { PlaceholderPage } from '../../../components/placeholder-page';

export function VideoPage() {
  const { id } = useParams<{ id: string }>();
  return <PlaceholderPage title={`Video #${id}`} />;
}
