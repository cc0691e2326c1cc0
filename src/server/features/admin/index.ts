// The admin feature's public entry: its routes, and the audit log that automatic refunds write too.
export { adminRoutes } from './routes.js';
export { writeAudit } from './admin-repository.js';
