import { QueryClient } from '@tanstack/react-query';
import { getQueryFn } from './api-request';

// spec 7: data is never stale, not refetched on focus, not polled and not retried.
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      queryFn: getQueryFn({ on401: 'throw' }),
      staleTime: Infinity,
      refetchOnWindowFocus: false,
      refetchInterval: false,
      retry: false,
    },
    mutations: {
      retry: false,
    },
  },
});
