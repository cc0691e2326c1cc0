// The notifications feature's public entry: the header's bell and the live unread count behind it. The
// notifications page is the router's.
export { NewAlertAnnouncer, NotificationBell } from './components/notification-bell';
export { useUnreadStream } from './api/unread-stream';
