// PickReel's service worker (docs/decisions/038): registered only when a user turns push alerts on. It shows
// each push as a notification and opens its page when pressed; it caches nothing and handles no fetch.
/* global self */
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('push', (event) => {
  let data;
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  event.waitUntil(
    self.registration.showNotification(data.title || 'PickReel', {
      body: data.body || '',
      // One notification per pick: a copy sent again replaces it rather than stacking.
      tag: data.tag,
      icon: '/favicon.svg',
      data: { url: data.url || '/notifications' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || '/notifications', self.location.origin);
  // Only this site's own pages, whatever a payload said.
  if (target.origin !== self.location.origin) return;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => client.url === target.href);
      if (open) return open.focus();
      const any = windows.find((client) => 'navigate' in client);
      if (any) {
        await any.focus();
        return any.navigate(target.href);
      }
      return self.clients.openWindow(target.href);
    })(),
  );
});
