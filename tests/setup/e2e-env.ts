/** Settings the browser tests start the server with, and then check the app against. */
export const E2E_ADMIN = { username: 'e2e_admin', password: 'e2e-admin-pass' } as const;
export const E2E_SUPPORT_PHONE = '+1 (555) 867-5309';
