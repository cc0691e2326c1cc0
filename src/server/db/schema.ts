// Drizzle schema: every entity of spec section 3 plus what the product decisions add (docs/product-decisions.md).
// Money is integer cents; timestamps carry a time zone; columns are snake_case.
import {
  sql,
  bigint,
  bigserial,
  customType,
  smallint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from './drizzle.js';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    displayName: text('display_name'),
    // argon2id PHC string; the spec's originalPassword is never stored (docs/product-decisions.md 'Security overrides').
    passwordHash: text('password_hash').notNull(),
    email: text('email'),
    // When `email` was confirmed through a signed link; null while it is unconfirmed.
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    // An address asked for but not confirmed yet: `email` stays as it was until the link is followed.
    pendingEmail: text('pending_email'),
    phoneNumber: text('phone_number'),
    bio: text('bio'),
    avatarUrl: text('avatar_url'),
    isAdmin: boolean('is_admin').notNull().default(false),
    manualEarningsCents: integer('manual_earnings_cents').notNull().default(0),
    createdAt: createdAt(),
    // NFKC + case fold of username, and its TR39 confusable skeleton (features/auth/usernames.ts).
    // Computed in JavaScript: null only on rows written before the column, until the start-up backfill.
    usernameKey: text('username_key'),
    usernameSkeleton: text('username_skeleton'),
  },
  (t) => [
    // 'Bob' and 'bob' are the same person to everyone reading a card.
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    // Not unique: accounts made before usernames had keys may share a key or a skeleton, and still work.
    index('users_username_key_idx').on(t.usernameKey),
    index('users_username_skeleton_idx').on(t.usernameSkeleton),
    check('users_manual_earnings_nonnegative', sql`${t.manualEarningsCents} >= 0`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    // SHA-256 of the token in the cookie: a leaked table does not leak live sessions.
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId), index('sessions_expires_at_idx').on(t.expiresAt)],
);

/**
 * Sign-in and registration counters (docs/decisions/003): per client address, and per account per
 * device class (unknown devices together, each known device apart). In the database, so no eviction can
 * reset a lock and every instance sees the same counts; rows past reset_at are dead and swept.
 */
export const authThrottles = pgTable(
  'auth_throttles',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('auth_throttles_reset_at_idx').on(t.resetAt)],
);

/**
 * How much of a video's search text the catalog orders' indexes carry (characters). A btree entry holds at
 * most 2,704 bytes: 400 characters of up to 4 bytes each, with the sort keys and the category, always fit.
 */
export const SEARCH_HEAD_LENGTH = 400;

export const videos = pgTable(
  'videos',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull(),
    // The winning selections: shown only to the owner, buyers and admins.
    emailInformation: text('email_information'),
    priceCents: integer('price_cents').notNull(),
    category: text('category').notNull().default('General'),
    thumbnailUrl: text('thumbnail_url'),
    videoUrl: text('video_url'),
    webmUrl: text('webm_url'),
    ogvUrl: text('ogv_url'),
    hlsUrl: text('hls_url'),
    externalVideoUrl: text('external_video_url'),
    isExternalVideo: boolean('is_external_video').notNull().default(false),
    // Storage key of the uploaded original (served only to owner, buyers and admins).
    originalFileKey: text('original_file_key'),
    originalFileName: text('original_file_name'),
    // The tus upload this video came from: finishing the same upload twice finds this row.
    uploadId: text('upload_id'),
    isTranscoded: boolean('is_transcoded').notNull().default(false),
    transcodingStatus: text('transcoding_status').notNull().default('pending'),
    transcodingProgress: integer('transcoding_progress').notNull().default(0),
    transcodingError: text('transcoding_error'),
    availableFormats: text('available_formats')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    duration: integer('duration'),
    isPremium: boolean('is_premium').notNull().default(true),
    views: integer('views').notNull().default(0),
    shareUrl: text('share_url'),
    shareCount: integer('share_count').notNull().default(0),
    createdAt: createdAt(),
    // What `?q=` searches, lower-cased once when written: one LIKE on one column per row instead of three
    // ILIKEs. Never selected for a response.
    searchText: text('search_text').generatedAlwaysAs(
      sql`lower(title || ' ' || description || ' ' || category)`,
    ),
    // The search text's first SEARCH_HEAD_LENGTH characters, which each catalog order's index carries: a
    // search walks that index in its order and stops at its page, reading no table row. The
    // rest of a longer text is searched through `videos_search_long_trgm_idx`. Never selected either.
    searchHead: text('search_head').generatedAlwaysAs(
      sql`left(lower(title || ' ' || description || ' ' || category), ${sql.raw(String(SEARCH_HEAD_LENGTH))})`,
    ),
  },
  (t) => [
    index('videos_user_id_idx').on(t.userId, t.createdAt, t.id),
    // The public catalog lists ready videos only, in these orders, so a large catalog stays fast.
    // Ascending on purpose: scanned backwards they serve `order by … desc` (NULLS FIRST) exactly. The id
    // ends the order (unique), so the category and search head after it never change the order: they are
    // there for a search, which then filters the index entries alone, in the order's own sequence, until
    // it has its page (an index-only scan), instead of reading every matching row and sorting them
    // (a common term would read thousands of table pages on the embedded database).
    index('videos_ready_newest_idx')
      .on(t.createdAt, t.id, t.category, t.searchHead)
      .where(sql`transcoding_status = 'ready'`),
    index('videos_ready_price_idx')
      .on(t.priceCents, t.id, t.category, t.searchHead)
      .where(sql`transcoding_status = 'ready'`),
    index('videos_ready_popular_idx')
      .on(t.views, t.id, t.category, t.searchHead)
      .where(sql`transcoding_status = 'ready'`),
    index('videos_category_idx').on(t.category, t.createdAt, t.id),
    // A rare term is found through trigrams instead, anywhere in the search head, and past
    // the head only among the videos whose text is longer than it. Written
    // straight into the index (no fastupdate pending list, which every search would otherwise read through).
    index('videos_search_head_trgm_idx')
      .using('gin', t.searchHead.op('gin_trgm_ops'))
      .with({ fastupdate: false }),
    index('videos_search_long_trgm_idx')
      .using('gin', t.searchText.op('gin_trgm_ops'))
      .with({ fastupdate: false })
      .where(sql`length(search_head) = ${sql.raw(String(SEARCH_HEAD_LENGTH))}`),
    // The same long texts by id, for a text too short for trigrams (one or two characters): the part past
    // the head then reads the long texts only, not the whole table.
    index('videos_search_long_idx')
      .on(t.id)
      .where(
        sql`length(search_head) = ${sql.raw(String(SEARCH_HEAD_LENGTH))} and transcoding_status = 'ready'`,
      ),
    uniqueIndex('videos_upload_id_idx').on(t.uploadId),
    check('videos_price_min', sql`${t.priceCents} >= 99`),
    check(
      'videos_transcoding_status',
      sql`${t.transcodingStatus} in ('pending', 'processing', 'ready', 'failed')`,
    ),
  ],
);

export const paymentIntents = pgTable(
  'payment_intents',
  {
    // The provider's id (Stripe 'pi_...' or the sandbox's own).
    id: text('id').primaryKey(),
    provider: text('provider').notNull(),
    clientSecret: text('client_secret').notNull(),
    videoId: integer('video_id').references(() => videos.id, { onDelete: 'set null' }),
    buyerId: integer('buyer_id').references(() => users.id, { onDelete: 'set null' }),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    status: text('status').notNull().default('requires_payment_method'),
    lastError: text('last_error'),
    // Why a succeeded payment was given back: a payment that unlocks nothing is refunded.
    refundReason: text('refund_reason'),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('payment_intents_buyer_video_idx').on(t.buyerId, t.videoId),
    // At most one open intent per buyer and video, across server instances (decision 010).
    uniqueIndex('payment_intents_open_idx')
      .on(t.buyerId, t.videoId)
      .where(sql`status not in ('succeeded', 'canceled', 'refunded')`),
    // A price change cancels the video's open intents.
    index('payment_intents_open_video_idx')
      .on(t.videoId)
      .where(sql`status not in ('succeeded', 'canceled', 'refunded')`),
  ],
);

export const purchases = pgTable(
  'purchases',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // Null once the video is deleted: the buyer keeps the record and what they paid for (docs/decisions/006).
    videoId: integer('video_id').references(() => videos.id, { onDelete: 'set null' }),
    videoTitle: text('video_title').notNull(),
    // The selections as they stood at purchase; shown only if the video is gone ('lifetime ownership').
    selectionsSnapshot: text('selections_snapshot'),
    amountCents: integer('amount_cents').notNull(),
    paymentIntentId: text('payment_intent_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // One payment unlocks one video once; one buyer owns a video once.
    uniqueIndex('purchases_payment_intent_idx').on(t.paymentIntentId),
    uniqueIndex('purchases_user_video_idx').on(t.userId, t.videoId),
    index('purchases_video_id_idx').on(t.videoId),
  ],
);

export const sales = pgTable(
  'sales',
  {
    id: serial('id').primaryKey(),
    sellerId: integer('seller_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    videoId: integer('video_id').references(() => videos.id, { onDelete: 'set null' }),
    purchaseId: integer('purchase_id').references(() => purchases.id, { onDelete: 'set null' }),
    buyerId: integer('buyer_id').references(() => users.id, { onDelete: 'set null' }),
    // The full price: the platform's 10% is taken as a fee on payouts (docs/product-decisions.md 'Money').
    amountCents: integer('amount_cents').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('sales_seller_id_idx').on(t.sellerId, t.createdAt),
    uniqueIndex('sales_purchase_idx').on(t.purchaseId),
  ],
);

export const payoutRequests = pgTable(
  'payout_requests',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    amountCents: integer('amount_cents').notNull(),
    feeCents: integer('fee_cents').notNull(),
    netCents: integer('net_cents').notNull(),
    paymentMethod: text('payment_method').notNull(),
    accountDetails: text('account_details').notNull(),
    status: text('status').notNull().default('pending'),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('payout_requests_user_id_idx').on(t.userId),
    index('payout_requests_status_idx').on(t.status, t.createdAt),
    check('payout_requests_status', sql`${t.status} in ('pending', 'paid', 'rejected')`),
    check('payout_requests_amount_positive', sql`${t.amountCents} > 0`),
    check('payout_requests_method', sql`${t.paymentMethod} in ('paypal', 'bank', 'venmo', 'other')`),
  ],
);

export const videoShares = pgTable(
  'video_shares',
  {
    id: serial('id').primaryKey(),
    videoId: integer('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    platform: text('platform').notNull(),
    ipAddress: text('ip_address'),
    referrer: text('referrer'),
    // Who shared, as for views ('u:{userId}' or 'a:{keyed hash of the address}'): a share counts once per
    // viewer and channel. Null on rows from before it was kept.
    viewerKey: text('viewer_key'),
    createdAt: createdAt(),
  },
  (t) => [
    index('video_shares_video_id_idx').on(t.videoId),
    uniqueIndex('video_shares_once_idx').on(t.videoId, t.viewerKey, t.platform),
  ],
);

/** One row per counted view: a viewer counts at most once an hour (docs/product-decisions.md 'Screens the spec does not show'), and analytics plot them. */
export const videoViews = pgTable(
  'video_views',
  {
    id: serial('id').primaryKey(),
    videoId: integer('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    // 'u:{userId}' for a signed-in viewer, else 'a:{hash of ip}'.
    viewerKey: text('viewer_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('video_views_video_viewer_idx').on(t.videoId, t.viewerKey, t.createdAt)],
);

/** Every admin action: who, what, when, before and after. Shown nowhere yet; kept. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: integer('target_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_created_at_idx').on(t.createdAt),
    index('audit_log_target_idx').on(t.targetType, t.targetId),
  ],
);

/** Stripe webhook events already handled: a replayed delivery is recognised by its id. */
export const webhookEvents = pgTable('webhook_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The durable job queue (server/jobs, docs/decisions/029): claimed with FOR UPDATE SKIP LOCKED, held by a
 * lease that the worker keeps renewing, so a job whose worker died is picked up again once the lease runs
 * out. What a job is about lives in its payload; `key` names it so that at most one is live at a time.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull().default({}),
    key: text('key'),
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(3),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    lockedBy: text('locked_by'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    // The claim query scans only live jobs.
    index('jobs_claim_idx')
      .on(t.runAt, t.id)
      .where(sql`status in ('queued', 'running')`),
    // At most one live job per key: a second enqueue of the same key is a no-op.
    uniqueIndex('jobs_key_live_idx')
      .on(t.key)
      .where(sql`status in ('queued', 'running')`),
    check('jobs_status', sql`${t.status} in ('queued', 'running', 'done', 'failed')`),
  ],
);

/**
 * Open tus uploads (caps per user): one row from creation until the upload becomes a video, is
 * refused, cancelled or expires. The caps are counted here, under a per-user lock, so concurrent creates on
 * several instances cannot exceed them (docs/decisions/007). The bytes stay in the upload store.
 */
export const uploads = pgTable(
  'uploads',
  {
    // The tus upload id (32 hex digits, server-made).
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('uploads_user_id_idx').on(t.userId, t.expiresAt),
    index('uploads_expires_at_idx').on(t.expiresAt),
  ],
);

// ---------------------------------------------------------------------------------------------------------
// Verified picks (docs/decisions/020): events and their final scores, sealed picks, their
// versions and legs. A pick outlives its video (a capper's delete of a sold or started pick keeps it on the
// record), so pick tables key on the video's id without a foreign key to it.

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * One game: one row whoever posts on it. A market game (docs/decisions/025) is the provider's, found by its
 * id (`provider`, `game_id`), its teams and start as the provider writes them; a self-reported game (no
 * market, or a league the market does not follow) is keyed by league, teams and start.
 */
export const events = pgTable(
  'events',
  {
    id: serial('id').primaryKey(),
    league: text('league').notNull(),
    home: text('home').notNull(),
    away: text('away').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    // scheduled → final (with a score), or postponed / cancelled (its legs are void).
    status: text('status').notNull().default('scheduled'),
    homeScore: integer('home_score'),
    awayScore: integer('away_score'),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    // Who settled it: an admin's id, or null for a results feed or the market (see `source`).
    settledBy: integer('settled_by').references(() => users.id, { onDelete: 'set null' }),
    source: text('source'),
    createdAt: createdAt(),
    // The market's game: the provider's name and its id of the game; null for a self-reported game.
    provider: text('provider'),
    gameId: text('game_id'),
    // SHA-256 of the log entries that hold its latest outcome (settled or corrected) and its closing prices:
    // a grade names the outcome it rests on, a correction the one it replaces (docs/pick-log.md).
    outcomeEntry: bytea('outcome_entry'),
    closedEntry: bytea('closed_entry'),
  },
  (t) => [
    uniqueIndex('events_game_idx')
      .on(t.league, sql`lower(${t.home})`, sql`lower(${t.away})`, t.startsAt)
      .where(sql`game_id is null`),
    uniqueIndex('events_market_game_idx').on(t.provider, t.gameId),
    // A market game found by its teams (any case, either order) near a given start.
    index('events_market_teams_idx')
      .on(t.league, sql`lower(${t.home})`, sql`lower(${t.away})`, t.startsAt)
      .where(sql`game_id is not null`),
    // The Results tab: events past their start without a score, oldest first.
    index('events_unsettled_idx')
      .on(t.startsAt, t.id)
      .where(sql`status = 'scheduled'`),
    check('events_status', sql`${t.status} in ('scheduled', 'final', 'postponed', 'cancelled')`),
    check(
      'events_score',
      sql`(${t.status} = 'final') = (${t.homeScore} is not null and ${t.awayScore} is not null)`,
    ),
    check('events_market_game', sql`(${t.provider} is null) = (${t.gameId} is null)`),
  ],
);

/**
 * A market game's latest prices (docs/decisions/025): every book's moneyline, spread and total as one json
 * value, from the snapshot taken at `taken_at`. Never written once the game has started, so at the start
 * it holds the last snapshot before it: the closing prices.
 */
export const eventPrices = pgTable('event_prices', {
  eventId: integer('event_id')
    .primaryKey()
    .references(() => events.id, { onDelete: 'cascade' }),
  takenAt: timestamp('taken_at', { withTimezone: true }).notNull(),
  // A hash of `prices`: an unchanged game's row is not rewritten.
  digest: text('digest').notNull(),
  prices: jsonb('prices').notNull(),
});

/** A game's closing prices, kept when it started: what its legs' closing line value is measured against. */
export const eventClosings = pgTable('event_closings', {
  eventId: integer('event_id')
    .primaryKey()
    .references(() => events.id, { onDelete: 'cascade' }),
  /** The snapshot's time (the last before the start); null when no price was ever taken. */
  takenAt: timestamp('taken_at', { withTimezone: true }),
  closedAt: timestamp('closed_at', { withTimezone: true }).notNull(),
  prices: jsonb('prices'),
});

/** Per league followed: when each kind of fetch last answered, shared by every instance. */
export const marketLeagues = pgTable('market_leagues', {
  league: text('league').primaryKey(),
  scheduleAt: timestamp('schedule_at', { withTimezone: true }),
  oddsAt: timestamp('odds_at', { withTimezone: true }),
  scoresAt: timestamp('scores_at', { withTimezone: true }),
});

/**
 * Every correction of a game's outcome or a leg's hand grade, public on the pick pages it touches: before
 * and after, the reason, and who (the admin's name kept should the account go).
 */
export const corrections = pgTable(
  'corrections',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id').references(() => events.id, { onDelete: 'cascade' }),
    legId: integer('leg_id'),
    videoId: integer('video_id'),
    before: jsonb('before').notNull(),
    after: jsonb('after').notNull(),
    reason: text('reason').notNull(),
    adminId: integer('admin_id').references(() => users.id, { onDelete: 'set null' }),
    adminName: text('admin_name').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('corrections_event_idx').on(t.eventId), index('corrections_video_idx').on(t.videoId)],
);

/** A video's pick: its current sealed version, its grade once every leg is graded, and its fate. */
export const picks = pgTable(
  'picks',
  {
    videoId: integer('video_id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    league: text('league').notNull(),
    parlay: boolean('parlay').notNull().default(false),
    legCount: integer('leg_count').notNull(),
    version: integer('version').notNull().default(1),
    // The current version's commitment and sealed JSON (RFC 8785 text: secret until graded).
    commitment: text('commitment').notNull(),
    sealed: text('sealed').notNull(),
    postedAt: timestamp('posted_at', { withTimezone: true }).notNull(),
    firstPostedAt: timestamp('first_posted_at', { withTimezone: true }).notNull(),
    // The earliest leg's start: selections and legs are locked from then (or from the first sale).
    locksAt: timestamp('locks_at', { withTimezone: true }).notNull(),
    result: text('result'),
    unitsWon: numeric('units_won', { precision: 10, scale: 2, mode: 'number' }),
    unitsRisked: numeric('units_risked', { precision: 10, scale: 2, mode: 'number' }),
    gradedAt: timestamp('graded_at', { withTimezone: true }),
    // 'capper' (off sale, still on the record) or 'moderation' (off the record's results).
    removed: text('removed'),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    title: text('title').notNull(),
    // A leg not bound to a market game and price: shown, never counted (docs/decisions/025).
    selfReported: boolean('self_reported').notNull().default(true),
    // The graded pick's bets by result: each leg of a straight pick, or the parlay as one.
    betsWon: integer('bets_won').notNull().default(0),
    betsLost: integer('bets_lost').notNull().default(0),
    betsPushed: integer('bets_pushed').notNull().default(0),
    betsVoid: integer('bets_void').notNull().default(0),
    // Closing line value of the graded pick's bets: how many had a close, their sum (percent), how many beat it.
    clvBets: integer('clv_bets').notNull().default(0),
    clvSum: numeric('clv_sum', { precision: 12, scale: 4, mode: 'number' }).notNull().default(0),
    clvBeat: integer('clv_beat').notNull().default(0),
  },
  (t) => [
    // A capper's record and the leaderboard read graded picks by capper and time.
    index('picks_user_graded_idx').on(t.userId, t.gradedAt),
    index('picks_graded_idx')
      .on(t.gradedAt, t.userId)
      .where(sql`result is not null and removed is distinct from 'moderation' and not self_reported`),
    // Sales close at the first leg's start: the sweep finds picks that closed since its last run.
    index('picks_locks_at_idx')
      .on(t.locksAt)
      .where(sql`result is null`),
    check('picks_result', sql`${t.result} in ('win', 'loss', 'push', 'void')`),
    check('picks_removed', sql`${t.removed} in ('capper', 'moderation')`),
  ],
);

/** Every sealed version of a pick: earlier commitments stay listed on the page. */
export const pickVersions = pgTable(
  'pick_versions',
  {
    videoId: integer('video_id')
      .notNull()
      .references(() => picks.videoId, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    commitment: text('commitment').notNull(),
    sealed: text('sealed').notNull(),
    postedAt: timestamp('posted_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('pick_versions_idx').on(t.videoId, t.version)],
);

/** The current version's legs, each graded from its event's score (or by an admin for props). */
export const pickLegs = pgTable(
  'pick_legs',
  {
    id: serial('id').primaryKey(),
    videoId: integer('video_id')
      .notNull()
      .references(() => picks.videoId, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    market: text('market').notNull(),
    side: text('side').notNull(),
    line: numeric('line', { precision: 6, scale: 1, mode: 'number' }),
    odds: integer('odds').notNull(),
    units: numeric('units', { precision: 4, scale: 1, mode: 'number' }).notNull(),
    result: text('result'),
    // An admin's reason for a prop's grade or a correction; null when graded by rule.
    gradeReason: text('grade_reason'),
    gradedBy: integer('graded_by').references(() => users.id, { onDelete: 'set null' }),
    gradedAt: timestamp('graded_at', { withTimezone: true }),
    // Not on a market game at a market price: shown as self-reported, never counted.
    selfReported: boolean('self_reported').notNull().default(true),
    // The price's evidence: the best price among books for this side and line, which book, and the snapshot.
    book: text('book'),
    marketOdds: integer('market_odds'),
    pricedAt: timestamp('priced_at', { withTimezone: true }),
    // Void whatever the score, and why (posted after the game's real start, when the feed moved it earlier).
    voidReason: text('void_reason'),
    // At the game's start: the best closing price for this side and line, its fair probability, and the CLV.
    closingOdds: integer('closing_odds'),
    // Unrounded, as the log's closed entry states it: a rounded fair moved a pick's CLV off the log's.
    closingFair: numeric('closing_fair', { mode: 'number' }),
    clv: numeric('clv', { precision: 9, scale: 4, mode: 'number' }),
  },
  (t) => [
    uniqueIndex('pick_legs_position_idx').on(t.videoId, t.position),
    index('pick_legs_event_idx').on(t.eventId),
    check('pick_legs_result', sql`${t.result} in ('win', 'loss', 'push', 'void')`),
    check('pick_legs_market', sql`${t.market} in ('moneyline', 'spread', 'total', 'prop', 'other')`),
  ],
);

/**
 * Every capper's record totals (bets, units, CLV) by league and age band of grading, over market-bound picks,
 * counted at record_bands_clock's time:
 * 0 graded within 30 days of it, 1 within 90, 2 earlier. The leaderboard and the badges read these few
 * rows instead of every graded pick (docs/decisions/020 'How records are kept'). Written only by the record
 * module (features/cappers/record), in the transactions that change picks (docs/decisions/033).
 */
export const recordBands = pgTable(
  'record_bands',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    league: text('league').notNull(),
    band: smallint('band').notNull(),
    wins: integer('wins').notNull().default(0),
    losses: integer('losses').notNull().default(0),
    pushes: integer('pushes').notNull().default(0),
    voids: integer('voids').notNull().default(0),
    unitsWon: numeric('units_won', { precision: 14, scale: 2, mode: 'number' }).notNull().default(0),
    unitsRisked: numeric('units_risked', { precision: 14, scale: 2, mode: 'number' }).notNull().default(0),
    clvBets: integer('clv_bets').notNull().default(0),
    clvSum: numeric('clv_sum', { precision: 16, scale: 4, mode: 'number' }).notNull().default(0),
    clvBeat: integer('clv_beat').notNull().default(0),
    // The graded picks the bets above came in (wins … voids count bets).
    picks: integer('picks').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.league, t.band] }),
    check('record_bands_band', sql`${t.band} in (0, 1, 2)`),
  ],
);

/** One row: the time record_bands' age bands are counted from, moved forward by a recurring job (decision 033). */
export const recordBandsClock = pgTable(
  'record_bands_clock',
  {
    id: smallint('id').primaryKey().default(1),
    asOf: timestamp('as_of', { withTimezone: true }).notNull(),
  },
  (t) => [check('record_bands_clock_one_row', sql`${t.id} = 1`)],
);

// ---------------------------------------------------------------------------------------------------------
// The public pick log (docs/pick-log.md, docs/decisions/021): an append-only RFC 9162
// Merkle tree. Entries are numbered by log_state's one row, which every append updates in its action's
// transaction: appends queue on that row lock, and a rolled-back action takes its number back (no gaps).

/**
 * Entries written by their actions' transactions, not numbered yet: the sequencer numbers them in order,
 * in batches, moments later: numbering inside every action's transaction would make all
 * posts queue on one row lock through their commits. An action and its entry still commit together.
 */
export const logPending = pgTable('log_pending', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  type: text('type').notNull(),
  // null for the evidence entries (settled, corrected, closed), which are a game's, not a pick's.
  videoId: integer('video_id'),
  capper: text('capper'),
  eventId: integer('event_id'),
  at: timestamp('at', { withTimezone: true }).notNull(),
  bytes: bytea('bytes').notNull(),
});

/** One row: how many entries the log holds. */
export const logState = pgTable(
  'log_state',
  {
    id: smallint('id').primaryKey().default(1),
    size: bigint('size', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('log_state_one_row', sql`${t.id} = 1`)],
);

/** Every entry: its RFC 8785 bytes as logged, and what the pages look it up by. */
export const logEntries = pgTable(
  'log_entries',
  {
    idx: bigint('idx', { mode: 'number' }).primaryKey(),
    type: text('type').notNull(),
    videoId: integer('video_id'),
    capper: text('capper'),
    // The game of an evidence entry: a pick's page lists the outcomes and closes of its legs' games.
    eventId: integer('event_id'),
    at: timestamp('at', { withTimezone: true }).notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [
    index('log_entries_video_idx').on(t.videoId, t.idx),
    index('log_entries_event_idx')
      .on(t.eventId, t.idx)
      .where(sql`event_id is not null`),
    check(
      'log_entries_type',
      sql`${t.type} in ('posted', 'revised', 'graded', 'removed', 'settled', 'corrected', 'closed')`,
    ),
  ],
);

/**
 * Every complete perfect subtree's hash (level 0: the leaves): a proof or a root reads O(log n) of these,
 * never the leaves.
 */
export const logNodes = pgTable(
  'log_nodes',
  {
    level: smallint('level').notNull(),
    idx: bigint('idx', { mode: 'number' }).notNull(),
    hash: bytea('hash').notNull(),
  },
  (t) => [primaryKey({ columns: [t.level, t.idx] })],
);

/** The signed checkpoints, one per tree size signed. */
export const logCheckpoints = pgTable('log_checkpoints', {
  size: bigint('size', { mode: 'number' }).primaryKey(),
  root: bytea('root').notNull(),
  note: text('note').notNull(),
  signedAt: timestamp('signed_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Witnesses' cosignatures of the signed checkpoints (C2SP tlog-cosignature, docs/decisions/026): per tree
 * size and witness, the latest line it answered (a refresh replaces it), served after the log's own. The
 * root says which checkpoint of that size it cosigned: only a line of the served checkpoint's root is served.
 */
export const logCosignatures = pgTable(
  'log_cosignatures',
  {
    size: bigint('size', { mode: 'number' }).notNull(),
    /** The witness's verifier key, as PICK_LOG_WITNESSES names it. */
    witness: text('witness').notNull(),
    root: bytea('root').notNull(),
    /** The signature line, without its newline. */
    line: text('line').notNull(),
    /** The cosignature's own timestamp. */
    cosignedAt: timestamp('cosigned_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.size, t.witness] }),
    index('log_cosignatures_witness_idx').on(t.witness, t.size),
  ],
);

/**
 * The log's identity, fixed at its first start: its origin and verifier key. A start with another key is
 * refused unless told to re-key (docs/decisions/021), so a lost key is never replaced silently.
 */
export const logIdentity = pgTable(
  'log_identity',
  {
    id: smallint('id').primaryKey().default(1),
    origin: text('origin').notNull(),
    verifierKey: text('verifier_key').notNull(),
    keyChangedAt: timestamp('key_changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('log_identity_one_row', sql`${t.id} = 1`)],
);

/**
 * PostgreSQL's 64-bit transaction id, as text (it exceeds a JS number's exact range). The outbox orders its
 * events by it: see docs/decisions/031.
 */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

/**
 * The transactional outbox (docs/events.md): each domain event, written in the transaction that caused it.
 * Durable subscribers read it in (tx_id, id) order, only below the oldest transaction still running, so an
 * event committed late by a transaction that began early is never skipped.
 */
export const domainEvents = pgTable(
  'domain_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    txId: xid8('tx_id')
      .notNull()
      .default(sql`pg_current_xact_id()`),
    type: text('type').notNull(),
    payload: jsonb('payload').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('domain_events_position_idx').on(t.txId, t.id)],
);

/** Each durable subscriber's progress through the outbox: the position of the last event it handled. */
export const eventSubscriptions = pgTable('event_subscriptions', {
  name: text('name').primaryKey(),
  txId: xid8('tx_id')
    .notNull()
    .default(sql`'0'::xid8`),
  eventId: bigint('event_id', { mode: 'number' }).notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Who follows which capper (docs/decisions/035). The capper's side is indexed with the follow's time: the
 * follower count and the alerts' fan-out (followers whose follow predates the pick) read it.
 */
export const follows = pgTable(
  'follows',
  {
    followerId: integer('follower_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    capperId: integer('capper_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.followerId, t.capperId] }),
    index('follows_capper_idx').on(t.capperId, t.createdAt),
    check('follows_not_self', sql`${t.followerId} <> ${t.capperId}`),
  ],
);

/**
 * In-app alerts (docs/decisions/035): one row per recipient and domain event, so a fan-out run twice writes
 * nothing more. The text is composed when read, from the video as it is then: no foreign key to videos, a
 * deleted or hidden video's alerts are simply not shown (and no capper's delete waits on its followers' rows).
 */
export const notifications = pgTable(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    kind: text('kind').notNull(),
    // A pick's alerts name its video; a subscription's alerts name the subscription instead.
    videoId: integer('video_id'),
    subscriptionId: integer('subscription_id'),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
    // A graded alert's result and units as graded then (a later correction is another alert).
    grade: text('grade'),
    unitsWon: numeric('units_won', { precision: 10, scale: 2, mode: 'number' }),
    // A subscription alert's detail as it happened: trial, final (failed for good), or why it ended.
    detail: text('detail'),
  },
  (t) => [
    // One alert per person and event; a graded alert is keyed by its pick instead (one event grades many).
    uniqueIndex('notifications_user_event_idx')
      .on(t.userId, t.eventId)
      .where(sql`kind <> 'pick.graded'`),
    index('notifications_user_id_idx').on(t.userId, t.id),
    index('notifications_unread_idx')
      .on(t.userId)
      .where(sql`read_at is null`),
    // One graded alert per person, pick and grade, whichever events graded it.
    uniqueIndex('notifications_graded_idx')
      .on(t.userId, t.videoId, t.grade)
      .where(sql`kind = 'pick.graded'`),
    check(
      'notifications_kind',
      sql`${t.kind} in ('pick.posted', 'pick.graded', 'subscription.started', 'subscription.renewed',
        'subscription.renewal_failed', 'subscription.ended')`,
    ),
    check('notifications_subject', sql`(${t.videoId} is null) <> (${t.subscriptionId} is null)`),
  ],
);

/**
 * Alert preferences per channel and kind (notifications, docs/decisions/040): only a choice that differs
 * from the default is a row, so a fan-out reads nothing for the many who never changed one.
 */
export const alertPreferences = pgTable(
  'alert_preferences',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    kind: text('kind').notNull(),
    enabled: boolean('enabled').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.channel, t.kind] }),
    check('alert_preferences_channel', sql`${t.channel} in ('in_app', 'email', 'push')`),
    check('alert_preferences_kind', sql`${t.kind} in ('new_pick', 'graded', 'subscription')`),
  ],
);

/** A capper muted on one channel by one user: none of that capper's alerts reach them there. */
export const capperAlertMutes = pgTable(
  'capper_alert_mutes',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    capperId: integer('capper_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.capperId, t.channel] }),
    check('capper_alert_mutes_channel', sql`${t.channel} in ('in_app', 'email', 'push')`),
  ],
);

/** One row per channel's fan-out done (e.g. `email:pick:<event>`): a job run again queues no mail twice. */
export const alertFanouts = pgTable('alert_fanouts', {
  key: text('key').primaryKey(),
  createdAt: createdAt(),
});

/**
 * Every mail PickReel sends or would send (server/mail, docs/decisions/036): written in the caller's
 * transaction, sent by a send_mail job. Without SMTP_URL a mail stays here as `outbox`, for an admin to read.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: serial('id').primaryKey(),
    toAddress: text('to_address').notNull(),
    toName: text('to_name'),
    kind: text('kind').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    messageId: text('message_id'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    // The per-recipient limit counts one address's mails of one kind in the last hour.
    index('mail_outbox_recipient_idx').on(sql`lower(${t.toAddress})`, t.kind, t.createdAt),
    check('mail_outbox_status', sql`${t.status} in ('queued', 'sent', 'failed', 'outbox')`),
  ],
);

/**
 * Browsers' Web Push subscriptions (docs/decisions/038), owned by the push feature. The endpoint is checked
 * against the push services' hosts before it is stored; a 404 or 410 from the service deletes the row.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: createdAt(),
    /** The push service's last refusal (a 4xx other than 404/410), for admins. */
    lastError: text('last_error'),
    failures: integer('failures').notNull().default(0),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_idx').on(t.endpoint),
    index('push_subscriptions_user_idx').on(t.userId),
  ],
);

/**
 * One row per (user, event, endpoint) a push was or is to be sent for: a retried fan-out sends only rows
 * still `queued`, so nobody is pushed twice for one event.
 */
export const pushDeliveries = pgTable(
  'push_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    endpoint: text('endpoint').notNull(),
    status: text('status').notNull().default('queued'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('push_deliveries_key_idx').on(t.eventId, t.userId, t.endpoint),
    check('push_deliveries_status', sql`${t.status} in ('queued', 'sent', 'failed', 'gone')`),
  ],
);

/**
 * A capper's promo codes (docs/decisions/039). Codes are stored upper-case, so the unique index is
 * case-insensitive. `percent_off` or `amount_off_cents`, by kind; `duration` matters to subscriptions only.
 */
export const promoCodes = pgTable(
  'promo_codes',
  {
    id: serial('id').primaryKey(),
    capperId: integer('capper_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    kind: text('kind').notNull(),
    percentOff: integer('percent_off'),
    amountOffCents: integer('amount_off_cents'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    maxUses: integer('max_uses'),
    duration: text('duration').notNull().default('once'),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('promo_codes_capper_code_idx').on(t.capperId, sql`upper(${t.code})`),
    check(
      'promo_codes_kind',
      sql`(${t.kind} = 'percent' and ${t.percentOff} between 1 and 90 and ${t.amountOffCents} is null)
        or (${t.kind} = 'fixed' and ${t.amountOffCents} > 0 and ${t.percentOff} is null)`,
    ),
    check('promo_codes_duration', sql`${t.duration} in ('once', 'forever')`),
    check('promo_codes_max_uses', sql`${t.maxUses} is null or ${t.maxUses} > 0`),
  ],
);

/**
 * A code's uses: `reserved` when a checkout's intent is created, `redeemed` when its payment succeeds (or a
 * subscription starts), `released` when the intent closes unpaid or is refunded. Reserved and redeemed rows
 * count against max uses and against the buyer's one use.
 */
export const promoRedemptions = pgTable(
  'promo_redemptions',
  {
    id: serial('id').primaryKey(),
    promoCodeId: integer('promo_code_id')
      .notNull()
      .references(() => promoCodes.id, { onDelete: 'cascade' }),
    buyerId: integer('buyer_id').references(() => users.id, { onDelete: 'set null' }),
    // One of the two: the single pick's payment, or the subscription (its own feature's id).
    paymentIntentId: text('payment_intent_id'),
    subscriptionId: text('subscription_id'),
    // The price the discount was computed from, and the discount: charged = list − off.
    listPriceCents: integer('list_price_cents').notNull(),
    amountOffCents: integer('amount_off_cents').notNull(),
    status: text('status').notNull().default('reserved'),
    createdAt: createdAt(),
    redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('promo_redemptions_intent_idx').on(t.paymentIntentId),
    // Once per buyer: a second live use of the same code by the same buyer cannot be written.
    uniqueIndex('promo_redemptions_buyer_idx')
      .on(t.promoCodeId, t.buyerId)
      .where(sql`status <> 'released'`),
    check('promo_redemptions_status', sql`${t.status} in ('reserved', 'redeemed', 'released')`),
  ],
);

/**
 * A capper's subscription plans (docs/decisions/037): a price per week, month or season for their picks in
 * some leagues, with an optional free trial. A retired plan takes no new subscribers and renews no one.
 */
export const subscriptionPlans = pgTable(
  'subscription_plans',
  {
    id: serial('id').primaryKey(),
    capperId: integer('capper_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    priceCents: integer('price_cents').notNull(),
    interval: text('interval').notNull(),
    leagues: text('leagues').array().notNull(),
    trialDays: integer('trial_days').notNull().default(0),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    createdAt: createdAt(),
    // Stripe Billing's Product and recurring Price for the plan (docs/decisions/041); null on the sandbox.
    providerProductId: text('provider_product_id'),
    providerPriceId: text('provider_price_id'),
  },
  (t) => [
    index('subscription_plans_capper_idx').on(t.capperId),
    check('subscription_plans_interval', sql`${t.interval} in ('week', 'month', 'season')`),
    check('subscription_plans_price', sql`${t.priceCents} between 99 and 100000`),
    check('subscription_plans_trial', sql`${t.trialDays} between 0 and 30`),
  ],
);

/**
 * A bettor's subscription to a plan (docs/decisions/037). Its times are the payment provider's (the
 * sandbox's test clock). `canceled` keeps access to `current_period_end`; `ended` is final.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: serial('id').primaryKey(),
    planId: integer('plan_id')
      .notNull()
      .references(() => subscriptionPlans.id, { onDelete: 'cascade' }),
    subscriberId: integer('subscriber_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    capperId: integer('capper_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    provider: text('provider').notNull(),
    paymentMethodId: text('payment_method_id').notNull(),
    cardLast4: text('card_last4').notNull(),
    trialEnd: timestamp('trial_end', { withTimezone: true }),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }).notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
    // Past due: when the next charge is tried, and when access ends if none succeeds.
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    graceUntil: timestamp('grace_until', { withTimezone: true }),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endReason: text('end_reason'),
    // A promo code taken at subscribing, as it stood then: renewals read these, never the code's current state
    // (docs/decisions/039). `promo_periods_left`: for `once`, 1 until the first paid period; null for `forever`.
    promoCode: text('promo_code'),
    promoKind: text('promo_kind'),
    promoPercentOff: integer('promo_percent_off'),
    promoAmountOffCents: integer('promo_amount_off_cents'),
    promoDuration: text('promo_duration'),
    promoPeriodsLeft: integer('promo_periods_left'),
    createdAt: createdAt(),
    // Stripe Billing's subscription (docs/decisions/041): Stripe keeps its schedule, webhooks move this row.
    providerSubscriptionId: text('provider_subscription_id'),
  },
  (t) => [
    index('subscriptions_subscriber_idx').on(t.subscriberId),
    uniqueIndex('subscriptions_provider_subscription_idx').on(t.providerSubscriptionId),
    index('subscriptions_capper_idx').on(t.capperId, t.status),
    // One live subscription per bettor and plan.
    uniqueIndex('subscriptions_live_idx')
      .on(t.planId, t.subscriberId)
      .where(sql`status <> 'ended'`),
    index('subscriptions_due_idx')
      .on(t.currentPeriodEnd)
      .where(sql`status <> 'ended'`),
    check(
      'subscriptions_status',
      sql`${t.status} in ('trialing', 'active', 'past_due', 'canceled', 'ended')`,
    ),
    check('subscriptions_not_self', sql`${t.subscriberId} <> ${t.capperId}`),
    check(
      'subscriptions_promo',
      sql`${t.promoCode} is null or (${t.promoKind} in ('percent', 'fixed') and ${t.promoDuration} in ('once', 'forever'))`,
    ),
  ],
);

/** Each paid period of a subscription: the capper's revenue, counted in their ledger like a sale. */
export const subscriptionInvoices = pgTable(
  'subscription_invoices',
  {
    id: serial('id').primaryKey(),
    subscriptionId: integer('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    capperId: integer('capper_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subscriberId: integer('subscriber_id').references(() => users.id, { onDelete: 'set null' }),
    amountCents: integer('amount_cents').notNull(),
    chargeId: text('charge_id').notNull(),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('subscription_invoices_charge_idx').on(t.chargeId),
    index('subscription_invoices_capper_idx').on(t.capperId),
  ],
);

/**
 * Who may read a pick through a subscription (docs/decisions/037): one row per reader and pick, written when
 * access is granted and kept, so who could see a pick stays exact after the subscription ends.
 */
export const pickAccess = pgTable(
  'pick_access',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    videoId: integer('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    grantedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.videoId] }), index('pick_access_video_idx').on(t.videoId)],
);

/** A bettor's Customer at a billing provider (Stripe), owned by the subscriptions feature (decision 041). */
export const billingCustomers = pgTable(
  'billing_customers',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    customerId: text('customer_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.provider] })],
);

/** The sandbox provider's test clock (server/payments): its offset from the wall clock, shared by instances. */
export const sandboxClock = pgTable(
  'sandbox_clock',
  {
    id: smallint('id').primaryKey().default(1),
    offsetSeconds: bigint('offset_seconds', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('sandbox_clock_one_row', sql`${t.id} = 1`)],
);
