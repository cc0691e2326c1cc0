import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_ADMIN } from '../setup/e2e-env';
import { expect, test as base } from './fixtures';
import { loginViaApi, newCredentials, type Credentials } from './helpers';

/** Someone signed in through the API in a cookie jar of their own, apart from the page's admin session. */
export type ApiUser = Credentials & { id: number; api: APIRequestContext };

type AdminFixtures = {
  /** Registers a fresh user (a capper, say) without touching the page's cookies. */
  createUser: (prefix?: string) => Promise<ApiUser>;
  /** The page, signed in as the e2e admin. */
  adminPage: Page;
};

export const test = base.extend<AdminFixtures>({
  createUser: async ({ playwright, baseURL, extraHTTPHeaders }, use) => {
    const contexts: APIRequestContext[] = [];
    await use(async (prefix = 'capper') => {
      // Same X-Forwarded-For as the test's page: one visitor, as far as the sign-up rate limit is concerned.
      const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders });
      contexts.push(api);
      const credentials = newCredentials(prefix);
      const res = await api.post('/api/register', {
        data: { ...credentials, phoneNumber: '', bio: '', avatarUrl: '' },
      });
      expect(res.status(), await res.text()).toBe(201);
      const { id } = (await res.json()) as { id: number };
      return { ...credentials, id, api };
    });
    await Promise.all(contexts.map((context) => context.dispose()));
  },

  adminPage: async ({ page }, use) => {
    await loginViaApi(page, E2E_ADMIN);
    await use(page);
  },
});

export { expect };
