// The cappers feature's public entry: the record's routes for the app; keepRecord for whatever changes a
// pick's grade or whether it counts, inside its transaction; the subscription that drops the cached records
// when an event changes them (forgetRecords for tests and tools); the bands' recurring roll and their rebuild
// after a bulk load (decision 033); a capper's profile settings.
export { capperRoutes } from './routes.js';
export { forgetRecords } from './records-cache.js';
export { forgetRecordsOnChange } from './records-subscriptions.js';
export { keepRecord, rebuildRecordBands, rollRecordBands } from './record/record-service.js';
export { profileRoutes } from './profile-routes.js';
