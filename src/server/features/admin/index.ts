// The admin feature's public entry: its routes (the audit log is appended through db/audit-log.ts).
export { adminRoutes } from './routes.js';
