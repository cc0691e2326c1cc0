// The cappers feature's public entry (issue 14): the record's routes for the app, and forgetRecords for
// whatever grades or moderates picks, so the cached records are read afresh.
export { capperRoutes } from './routes.js';
export { forgetRecords } from './records-cache.js';
