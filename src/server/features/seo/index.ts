// The seo feature's public entry: robots.txt and the sitemaps.
export { seoRoutes } from './routes.js';
