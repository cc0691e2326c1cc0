import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

export type Credentials = { username: string; password: string };

/** Unique per call, within the schema's 3..50 characters of letters, digits, dot, dash and underscore. */
export function uniqueUsername(prefix = 'user'): string {
  return `${prefix}_${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
}

export function newCredentials(prefix?: string): Credentials {
  return { username: uniqueUsername(prefix), password: `pw-${randomBytes(6).toString('hex')}` };
}

/**
 * Creates an account through the API. The page's context shares the cookie jar, so the page is signed in
 * afterwards. Faster than the form, for tests about something else.
 */
export async function registerAndLogin(
  page: Page,
  credentials: Credentials = newCredentials(),
): Promise<Credentials> {
  const res = await page.request.post('/api/register', {
    data: { ...credentials, phoneNumber: '', bio: '', avatarUrl: '' },
  });
  expect(res.status(), await res.text()).toBe(201);
  return credentials;
}

export async function loginViaApi(page: Page, credentials: Credentials): Promise<void> {
  const res = await page.request.post('/api/login', { data: credentials });
  expect(res.status(), await res.text()).toBe(200);
}

export async function fillLogin(page: Page, { username, password }: Credentials): Promise<void> {
  const form = page.getByRole('form', { name: 'Login' });
  await form.getByLabel('Username').fill(username);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Sign In' }).click();
}

export async function fillRegister(
  page: Page,
  { username, password }: Credentials,
  phoneNumber = '',
): Promise<void> {
  const form = page.getByRole('form', { name: 'Register' });
  await form.getByLabel('Username').fill(username);
  await form.getByLabel('Phone number').fill(phoneNumber);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Create Account Capper/Bettor' }).click();
}

/** The toasts currently rendered in Radix's notifications region (F8). */
export function toasts(page: Page): Locator {
  return page.getByRole('region', { name: 'Notifications (F8)' }).getByRole('listitem');
}

export function accountMenuButton(page: Page): Locator {
  return page.getByRole('button', { name: /^Account menu for / });
}

/** The desktop bar's signed-out links; they only exist while nobody is signed in. */
export function loginLink(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login Capper/Bettor' });
}

/** A media file's URL as the API gives it: its path, then the file's version (`?v=`, for long caching). */
export function mediaUrl(videoId: number, file: string): RegExp {
  return new RegExp(`^/media/videos/${videoId}/${file.replace('.', '\\.')}(\\?v=[\\w-]+)?$`);
}

/**
 * Keeps a line per tus request of the page (`/api/uploads…`): when it was answered (seconds from now), its
 * method and status, or why it failed. A failing large-upload test prints it, to tell a stalled upload from
 * a refused one.
 */
export function recordTusTraffic(page: Page): string[] {
  const lines: string[] = [];
  const started = Date.now();
  const at = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  const isTus = (url: string) => new URL(url).pathname.startsWith('/api/uploads');
  page.on('response', (response) => {
    if (isTus(response.url())) lines.push(`${at()} ${response.request().method()} ${response.status()}`);
  });
  page.on('requestfailed', (request) => {
    if (isTus(request.url()))
      lines.push(`${at()} ${request.method()} failed: ${request.failure()?.errorText}`);
  });
  return lines;
}

/**
 * Waits for the upload form's outcome toast and expects success. A refused upload fails at once with the
 * failure toast's text; a slow one fails after `timeout` with the tus requests seen so far.
 */
export async function expectUploadSuccessful(page: Page, tus: string[], timeout: number): Promise<void> {
  const outcome = toasts(page).filter({ hasText: /Upload (successful|failed)/ });
  try {
    await expect(outcome).toContainText('Upload successful', { timeout });
  } catch (error) {
    const seen = tus.length ? tus.join('; ') : 'none';
    throw new Error(`${(error as Error).message}\ntus requests answered so far: ${seen}`, { cause: error });
  }
}
