// The notifications feature's public entry (docs/decisions/035): its routes, the open streams' registry,
// and the alerts of a new pick (a durable subscriber of pick.posted and the job it queues) for the app.
export { notificationRoutes } from './routes.js';
export { UnreadStreams } from './unread-streams.js';
export { alertFollowersOfPicks, handlePickAlerts, pickAlertsJob } from './follower-alerts.js';
