import { PlaceholderPage } from '../../../components/placeholder-page';

// Only admins get here: the route guard in app/ turns everyone else away (spec 2, Admin dashboard).
export function AdminPage() {
  return <PlaceholderPage title="Admin Dashboard" />;
}
