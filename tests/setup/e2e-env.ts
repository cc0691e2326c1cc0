import { DEFAULT_PUSH_SERVICE_HOSTS } from '#server/lib/push-hosts.js';

/** Settings the browser tests start the server with, and then check the app against. */
export const E2E_ADMIN = { username: 'e2e_admin', password: 'e2e-admin-pass' } as const;
export const E2E_SUPPORT_PHONE = '+1 (555) 867-5309';
/** The market the browser tests' server follows: a stand-in of The Odds API on E2E_STAND_IN_PORT. */
export const E2E_MARKET = { key: 'e2e-stand-in-key', leagues: 'NFL,MLB' } as const;
/** The browsers' push services and the push test's stand-in, plain http on this machine only. */
export const e2ePushServiceHosts = (port: number) => `${DEFAULT_PUSH_SERVICE_HOSTS},http://127.0.0.1:${port}`;
