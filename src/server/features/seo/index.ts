// The seo feature's public entry (issue 13): robots.txt and the sitemaps.
export { seoRoutes } from './routes.js';
