// The payments feature's public entry: its routes, and what a capper's price change does to the
// video's open payments (the videos feature calls it through the app).
export { paymentRoutes } from './routes.js';
export { cancelIntentsOfClosedPicks, cancelOpenIntentsForPriceChange } from './payments-service.js';
