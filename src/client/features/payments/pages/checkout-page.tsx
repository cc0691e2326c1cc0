import { useParams } from 'wouter';
import { PlaceholderPage } from '../../../components/placeholder-page';

export function CheckoutPage() {
  const { id } = useParams<{ id: string }>();
  return <PlaceholderPage title="Checkout">Video #{id}</PlaceholderPage>;
}
