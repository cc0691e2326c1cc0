// The auth feature's public entry: what the app and the other features use. Every other file in
// this folder is the feature's own, and lint keeps it so.
export { DEFAULT_AUTH_RATE_LIMITS, authRoutes, type AuthRateLimits } from './routes.js';
export { emailRoutes } from './email-routes.js';
export { CONFIRMATION_MAIL_KIND, CONFIRMATION_MAILS_PER_HOUR } from './email-confirmation.js';
export { SessionStore, currentUser, requireAdmin, requireUser } from './session.js';
export {
  deleteAccount,
  deleteExpiredSessions,
  ensureAdmin,
  findUserById,
  findUserByUsername,
  newAdminNameProblem,
  profileOf,
  promoteAdmin,
  saveAvatarUrl,
  saveManualEarnings,
  saveProfileText,
  type UserRow,
} from './auth-service.js';
