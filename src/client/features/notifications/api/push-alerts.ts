// Web Push in this browser (docs/decisions/038): the service worker is registered, and permission asked,
// only when the user turns push alerts on; turning them off unsubscribes here and on the server.
import { apiJson, apiRequest } from '#client/lib/api-request.ts';

export type PushState = 'unsupported' | 'denied' | 'off' | 'on';

const WORKER_URL = '/sw.js';

export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    window.isSecureContext &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

/** The key as PushManager.subscribe takes it: bytes from base64url. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(raw, (char) => char.charCodeAt(0));
}

function sameBytes(a: ArrayBuffer | null, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.length) return false;
  const bytes = new Uint8Array(a);
  return bytes.every((byte, index) => byte === b[index]);
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** The Permissions API first: some browsers (headless Chromium) keep Notification.permission stale. */
async function notificationPermission(): Promise<PermissionState> {
  try {
    return (await navigator.permissions.query({ name: 'notifications' })).state;
  } catch {
    return Notification.permission === 'default' ? 'prompt' : Notification.permission;
  }
}

/** Where this browser stands, without asking anything of the user. */
export async function pushState(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  if ((await notificationPermission()) === 'denied') return 'denied';
  return (await currentSubscription()) ? 'on' : 'off';
}

/** Asks permission (the press is the user's), registers the worker, subscribes, and tells the server. */
export async function turnOnPush(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return permission === 'denied' ? 'denied' : 'off';
  const registration = await navigator.serviceWorker.register(WORKER_URL, { scope: '/' });
  await navigator.serviceWorker.ready;
  const { publicKey } = await apiJson<{ publicKey: string }>('GET', '/api/push/key');
  const applicationServerKey = keyBytes(publicKey);
  let subscription = await registration.pushManager.getSubscription();
  // One made with another server key (the keys were changed) would be refused by the push service.
  if (subscription && !sameBytes(subscription.options.applicationServerKey, applicationServerKey)) {
    await subscription.unsubscribe().catch(() => false);
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
  try {
    await apiJson('POST', '/api/push/subscriptions', subscription.toJSON());
  } catch (error) {
    // The server would not keep it: leave nothing half on.
    await subscription.unsubscribe().catch(() => false);
    throw error;
  }
  return 'on';
}

export async function turnOffPush(): Promise<PushState> {
  const subscription = await currentSubscription();
  if (subscription) {
    await apiRequest('DELETE', '/api/push/subscriptions', { endpoint: subscription.endpoint });
    await subscription.unsubscribe();
  }
  return pushState();
}
