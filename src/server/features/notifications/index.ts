// The notifications feature's public entry (docs/decisions/035, 040): its routes, the open streams' registry,
// the alerts of a new pick (a durable subscriber of pick.posted and the job it queues) and of a graded pick,
// the e-mail channel's settings, and the preference predicate other channels filter their fan-out with.
export { notificationRoutes } from './routes.js';
export { alertPreferenceRoutes, UNSUBSCRIBE_PATH } from './alert-preferences-routes.js';
export { UnreadStreams } from './unread-streams.js';
export { alertFollowersOfPicks, handlePickAlerts, pickAlertsJob } from './follower-alerts.js';
export { alertBuyersOfGradedPicks, gradedAlertsJob, handleGradedAlerts } from './graded-alerts.js';
export { alertSubscribersOfPicks, handleSubscriberPickAlerts } from './subscriber-alerts.js';
export { alertSubscriptionChanges } from './subscription-alerts.js';
export { alertMailSettings, type AlertMailSettings } from './mail-alerts.js';
export { wantsAlert } from './alert-preferences.js';
