// The cappers feature's public entry (issue 14): the record's routes for the app, and forgetRecords for
// whatever grades or moderates picks, so the cached records are read afresh; a capper's profile settings.
export { capperRoutes } from './routes.js';
export { forgetRecords } from './records-cache.js';
export { profileRoutes } from './profile-routes.js';
