import { PlaceholderPage } from '../../../components/placeholder-page';

export function AnalyticsPage() {
  return <PlaceholderPage title="Analytics" />;
}
