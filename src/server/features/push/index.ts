// The push feature's public entry (docs/decisions/038): its routes, the fan-out job's handler for the app,
// and the use-case the in-app alerts' job calls to queue an event's pushes in its transaction.
export { pushRoutes } from './routes.js';
export {
  handlePushAlerts,
  pushAlertsJob,
  queuePushAlerts,
  queuePushMessage,
  type PushMessage,
  type PushSettings,
} from './push-delivery.js';
