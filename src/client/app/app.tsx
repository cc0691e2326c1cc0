import { AppLayout } from './layout/app-layout';
import { Providers } from './providers';
import { AppRoutes } from './routes';

export function App() {
  return (
    <Providers>
      <AppLayout>
        <AppRoutes />
      </AppLayout>
    </Providers>
  );
}
