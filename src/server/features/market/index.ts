// The market feature's public entry (docs/decisions/025): the provider behind it, its games and prices, the
// rules that bind a leg to them, and each game's outcome. Picks use these to post, close, settle and grade.
export {
  MarketProviderError,
  type GameOdds,
  type GameScore,
  type MarketGame,
  type MarketProvider,
  type PreparedOdds,
  type Quota,
} from './provider.js';
export { OddsApiProvider } from './odds-api-provider.js';
export { ESPN_LEAGUE_PATHS, EspnScoreboard, sameGameByTeams } from './espn-scoreboard.js';
export { startMarketStandIn, type MarketStandIn } from './stand-in.js';
export {
  bindLeg,
  checkOfficialStart,
  closeStartedGames,
  findMarketEvent,
  findMarketEventByGame,
  gamesAwaitingScores,
  ingestOdds,
  ingestSchedule,
  keepClosedEntries,
  keepOutcomeEntries,
  leagueStates,
  listSchedule,
  loadGames,
  marketGamesByIds,
  noteFetched,
  pricesOf,
  selfReportedEvent,
  StalePricesError,
  type BoundLeg,
  type FetchKind,
  type GameAwaitingScore,
  type GameStanding,
  type LegRequest,
  type LoadedGame,
  type MarketEventRow,
  type MovedStart,
  type PriceEvidence,
  type SelfReportedGame,
  type StartedGame,
} from './market-service.js';
export {
  closingLines,
  closingOf,
  namedPrices,
  offeredLines,
  prepareOdds,
  sideCode,
  type OfferedPrice,
  type PriceSnapshot,
} from './prices.js';
export { backoffSeconds, LOW_CREDITS, planFetches, type FetchPlan, type LeagueView } from './fetch-policy.js';
export {
  CORRECTION_NOT_STARTED_MESSAGE,
  correctGame,
  EVENT_NOT_SETTLED_MESSAGE,
  EVENT_NOT_STARTED_MESSAGE,
  EVENT_SETTLED_MESSAGE,
  settleGame,
  settlePastGames,
  type EventLocked,
  type EventOutcome,
  type Settler,
} from './settlement-service.js';
