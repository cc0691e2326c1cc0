// The cappers feature's public entry: the record's routes for the app, the subscription that drops the
// cached records when an event changes them (forgetRecords for tests and tools); a capper's profile settings.
export { capperRoutes } from './routes.js';
export { forgetRecords } from './records-cache.js';
export { forgetRecordsOnChange } from './records-subscriptions.js';
export { profileRoutes } from './profile-routes.js';
