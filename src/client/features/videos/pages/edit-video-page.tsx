import { useParams } from 'wouter';
import { PlaceholderPage } from '../../../components/placeholder-page';

export function EditVideoPage() {
  const { id } = useParams<{ id: string }>();
  return <PlaceholderPage title="Edit Video">Video #{id}</PlaceholderPage>;
}
