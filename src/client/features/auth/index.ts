// The auth feature's public entry: who is signed in, and signing out. Its pages are the router's.
export { useUser } from './api/get-user';
export { useLogout } from './api/logout';
