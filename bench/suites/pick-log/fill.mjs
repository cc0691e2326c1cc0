// Fills the database the settings name (DATA_DIR / DATABASE_URL) with a season of picks whose public log has
// N entries, the server stopped, through the built server's own code wherever the server has code for it.
// Run by the pick-log suite as a child process (node bench/suites/pick-log/fill.mjs), so the bench process
// never loads PGlite nor holds the embedded database's lock. Prints `BENCH_FILL {json}` at the end.
//
// Day by day over a season ending before today (season.mjs: ~1,000 cappers, the market's games of four
// leagues with their books' prices and scores, self-reported games of two more):
//   - the market's schedule and opening prices are ingested (market-service ingestSchedule, ingestOdds);
//   - the day's picks are posted: each market leg bound by the server's bindLeg to the prices of the moment,
//     sealed (version 2) and written as postPick writes them (picks, pick_versions, pick_legs, a `posted`
//     entry through appendToLog), in bulk: per pick, the server's postPick costs a handful of statements;
//   - some are revised (revisePick) or deleted by their capper (removePick) before their first game;
//   - at each start the closing prices are ingested and the market closes the started games
//     (MarketSync.closeStarted: event_closings, each leg's CLV, a `closed` entry); now and then the feed
//     moves a start earlier (applyMovedStarts voids the legs posted after the real start);
//   - after each game the score settles it (settleEvent: the `settled` entry, every leg graded, each pick's
//     grade with its evidence); props are graded by an admin (gradeLegByHand); some outcomes and prop grades
//     are corrected (correctEvent, gradeLegByHand: `corrected`, then new grades); some picks are removed by
//     their capper or by moderation (removePick);
//   - the log is numbered as the server's log writer numbers it (sequencePending).
// The day's pick count follows the entries still wanted, and the last entries are picks posted on
// tomorrow's games (still open), so the log holds exactly N entries. The log, picks, legs, grades, CLV and
// record_bands (kept by the record module as the server's code grades and removes picks) are then what a
// site that lived that season would hold.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  PROVIDER,
  americanOf,
  booksOf,
  cappersOf,
  closingOf,
  gamesOfDay,
  hex,
  outcomeOf,
  randomOf,
  times,
} from './season.mjs';

const { DAY_MS, HOUR_MS } = times;
const MINUTE_MS = 60_000;
const dist = process.env.BENCH_DIST_SERVER;
const load = (p) => import(pathToFileURL(path.join(dist, p)).href);
const { loadConfig } = await load('config.js');
const { openConfiguredDatabase } = await load('db/client.js');
const { appendToLog, sequencePending } = await load('features/pick-log/log-service.js');
const { settleEvent, correctEvent, gradeLegByHand } = await load('features/picks/grading-service.js');
const { revisePick, removePick } = await load('features/picks/picks-service.js');
const { MarketSync } = await load('features/picks/market-sync.js');
const { bindLeg, ingestOdds, ingestSchedule } = await load('features/market/market-service.js');
const { prepareOdds, snapshotOf } = await load('features/market/prices.js');
const { usernameKey, usernameSkeleton } = await load('features/auth/usernames.js');
const { hashPassword } = await load('features/auth/passwords.js');
const { canonicalBytes, isoSeconds, sealedLeg } = await load('../common/pick-seal.js');
const { contradictionProblem, gameKey, parlayProblem } = await load('../common/schemas/picks.js');
const { decimalOdds } = await load('../common/odds.js');

const { total, batch, cappers: capperCount, days: seasonDays } = JSON.parse(process.env.BENCH_FILL);
const FIRST_VIDEO = 10_000_000;
/** Entries left for the picks posted on tomorrow's games: the log's exact size is reached with them. */
const RESERVE = Math.min(1500, Math.round(total * 0.015));
const NO_QUOTA = { remaining: null, used: null, last: null };
const GAME_HOURS = { NBA: 2.5, NHL: 2.6, MLB: 3.1, NFL: 3.3, Soccer: 2, 'College Basketball': 2.2 };
const PLAYERS = [
  'the home side’s leading scorer',
  'the away side’s leading scorer',
  'the starting quarterback',
  'the starting goalie',
  'the top rebounder',
];
const decoder = new TextDecoder();
const sha256Hex = (bytes) => createHash('sha256').update(bytes).digest('hex');
const iso = (ms) => isoSeconds(new Date(ms));

const database = await openConfiguredDatabase(loadConfig());
const db = database.db;
const pool = db.$client;
const q = async (text, params) => (await pool.query(text, params)).rows;
const quiet = { info() {}, warn() {}, error() {}, debug() {} };
const market = new MarketSync(
  db,
  { name: PROVIDER, leagues: ['NBA', 'NHL', 'MLB', 'NFL'] },
  { tickSeconds: 60, log: quiet },
);

const counts = {
  picks: 0,
  legs: 0,
  parlays: 0,
  straightMultiLeg: 0,
  selfReported: 0,
  props: 0,
  revisions: 0,
  deletedBeforeStart: 0,
  removedByCapper: 0,
  removedByModeration: 0,
  games: 0,
  postponedOrCancelled: 0,
  movedStarts: 0,
  corrections: 0,
  propCorrections: 0,
  openPicks: 0,
};
const seconds = { posting: 0, serverActions: 0, numbering: 0 };
const timed = async (bucket, fn) => {
  const started = performance.now();
  try {
    return await fn();
  } finally {
    seconds[bucket] += (performance.now() - started) / 1000;
  }
};

try {
  await database.migrate();
  const started = performance.now();
  const now = Date.now();
  // The last day played: its games' every action (up to ~40 h after the day begins) is in the past.
  const lastDay = Math.floor((now - 44 * HOUR_MS) / DAY_MS) * DAY_MS;
  const firstDay = lastDay - (seasonDays - 1) * DAY_MS;
  const { admin, cappers } = await createUsers();
  const pickWeights = cumulative(cappers.map((c) => c.activity));
  const random = randomOf(15);
  let nextVideo = FIRST_VIDEO;
  let entriesByDays = 0;
  let picksByDays = 0;

  for (let d = 0; d < seasonDays; d++) {
    const day = firstDay + d * DAY_MS;
    const before = await logSize();
    const ratio = picksByDays > 1000 ? entriesByDays / picksByDays : 2.1;
    const wanted = Math.max(0, total - RESERVE - before);
    const weekend = [0, 6].includes(new Date(day).getUTCDay()) ? 1.25 : 0.9;
    const picksToday = Math.round((wanted / ratio / (seasonDays - d)) * weekend);
    const posted = await playDay(day, picksToday);
    picksByDays += posted;
    entriesByDays += (await logSize()) - before;
    if ((await pendingCount()) >= batch) await number();
    if (d % 10 === 9 || d === seasonDays - 1)
      console.error(
        `  day ${d + 1}/${seasonDays} (${new Date(day).toISOString().slice(0, 10)}): ${(await logSize()).toLocaleString('en-US')} entries, ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
  }
  // Picks on tomorrow's games, open: exactly the entries still wanted.
  await number();
  const open = total - (await logSize());
  if (open < 0) throw new Error(`the season logged ${total - open} entries, more than ${total}`);
  await postOpenPicks(Math.floor(now / DAY_MS) * DAY_MS + DAY_MS, now, open);
  await number();
  const fillSeconds = (performance.now() - started) / 1000;

  // PGlite runs no autovacuum, and the server's start would otherwise vacuum these tables inside its start.
  const vacuumStarted = performance.now();
  await database.exec(`vacuum analyze log_entries, log_nodes, log_state, log_pending, picks, pick_legs,
    pick_versions, events, event_prices, event_closings, record_bands, users, corrections, audit_log`);
  const vacuumSeconds = (performance.now() - vacuumStarted) / 1000;
  const [sizes] = await q(`select pg_database_size(current_database())::bigint as database,
      pg_total_relation_size('log_entries')::bigint as entries,
      pg_total_relation_size('log_nodes')::bigint as nodes,
      (select count(*) from log_nodes)::bigint as node_rows,
      (select size from log_state)::bigint as size,
      (select sum(octet_length(bytes)) from log_entries)::bigint as entry_bytes,
      (select count(*) from picks)::int as picks, (select count(*) from pick_legs)::int as legs,
      (select count(*) from picks where result is not null and not self_reported
        and removed is distinct from 'moderation')::int as counted`);
  const types = Object.fromEntries(
    (await q('select type, count(*)::int as n from log_entries group by type order by type')).map((r) => [
      r.type,
      r.n,
    ]),
  );
  console.log(
    'BENCH_FILL ' +
      JSON.stringify({
        entries: Number(sizes.size),
        types,
        season: {
          firstDay: new Date(firstDay).toISOString().slice(0, 10),
          lastDay: new Date(lastDay).toISOString().slice(0, 10),
          days: seasonDays,
        },
        counts: {
          ...counts,
          picksInDatabase: sizes.picks,
          legsInDatabase: sizes.legs,
          countedPicks: sizes.counted,
        },
        fillSeconds,
        phaseSeconds: seconds,
        vacuumSeconds,
        entryBytes: Number(sizes.entry_bytes),
        databaseBytes: Number(sizes.database),
        entriesTableBytes: Number(sizes.entries),
        nodesTableBytes: Number(sizes.nodes),
        nodeRows: Number(sizes.node_rows),
      }),
  );

  // ---------------------------------------------------------------------------------------------------

  async function createUsers() {
    const hash = await hashPassword('bench-capper-password');
    const list = cappersOf(capperCount);
    const names = ['bench_admin', ...list.map((c) => c.username)];
    const rows = await q(
      `insert into users (username, display_name, password_hash, username_key, username_skeleton, bio, is_admin)
       select u.name, u.display, $2, u.key, u.skeleton, u.bio, u.name = 'bench_admin'
       from unnest($1::text[], $3::text[], $4::text[], $5::text[], $6::text[]) as u(name, display, key, skeleton, bio)
       returning id, username`,
      [
        names,
        hash,
        names.map((n) => n.replace(/([a-z])([A-Z])/g, '$1 $2')),
        names.map(usernameKey),
        names.map(usernameSkeleton),
        names.map((n) => `Picks and reasoning from ${n}.`),
      ],
    );
    const ids = new Map(rows.map((r) => [r.username, r.id]));
    return {
      admin: { id: ids.get('bench_admin') },
      cappers: list.map((c) => ({ ...c, id: ids.get(c.username) })),
    };
  }

  async function logSize() {
    const [row] = await q(
      'select (select size from log_state)::bigint + (select count(*) from log_pending)::bigint as n',
    );
    return Number(row.n);
  }

  async function pendingCount() {
    return Number((await q('select count(*)::bigint as n from log_pending'))[0].n);
  }

  /** Numbered as the server's log writer numbers them (decision 021): in order, in batches. */
  async function number() {
    await timed('numbering', async () => {
      while ((await sequencePending(db, batch)) === batch);
    });
  }

  function cumulative(weights) {
    let sum = 0;
    return weights.map((w) => (sum += w));
  }

  function drawCapper() {
    const r = random.next() * pickWeights.at(-1);
    let lo = 0;
    let hi = pickWeights.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pickWeights[mid] < r) lo = mid + 1;
      else hi = mid;
    }
    return cappers[lo];
  }

  /** The market's schedule and opening prices for these games (as a tick's fetches write them). */
  async function ingestGames(games, openAt) {
    const marketGames = games.filter((g) => g.market);
    if (!marketGames.length) return;
    await db.transaction((tx) => ingestSchedule(tx, PROVIDER, marketGames.map(providerGame)));
    await ingestOdds(
      db,
      PROVIDER,
      prepareOdds({
        data: marketGames.map((g) => ({ game: providerGame(g), books: g.openBooks })),
        quota: NO_QUOTA,
      }),
      new Date(openAt),
    );
    const rows = await q('select id, game_id from events where provider = $1 and game_id = any($2::text[])', [
      PROVIDER,
      marketGames.map((g) => g.gameId),
    ]);
    const ids = new Map(rows.map((r) => [r.game_id, r.id]));
    for (const g of marketGames) g.eventId = ids.get(g.gameId);
  }

  function providerGame(g) {
    return {
      id: g.gameId,
      league: g.league,
      home: g.home,
      away: g.away,
      startsAt: iso(g.startsAt.getTime()),
    };
  }

  /** Self-reported games' events, as market's selfReportedEvent makes them (one per league, teams and start). */
  async function selfReportedEvents(games) {
    if (!games.length) return;
    const rows = await q(
      `insert into events (league, home, away, starts_at)
       select * from unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[])
       on conflict (league, lower(home), lower(away), starts_at) where game_id is null
         do update set league = excluded.league
       returning id`,
      [
        games.map((g) => g.league),
        games.map((g) => g.home),
        games.map((g) => g.away),
        games.map((g) => g.startsAt.toISOString()),
      ],
    );
    games.forEach((g, i) => (g.selfEventId = rows[i].id));
  }

  function prepareGames(games, openAt) {
    for (const g of games) {
      g.close = closingOf(g);
      g.outcome = outcomeOf(g);
      g.legs = 0;
      if (!g.market) continue;
      g.openBooks = booksOf(g, g.open, g.outcomeSeed + 1, openAt);
      g.closeBooks = booksOf(g, g.close, g.outcomeSeed + 2, g.startsAt.getTime() - 2 * MINUTE_MS);
      g.openSnapshot = snapshotOf(g, g.openBooks);
      g.closeSnapshot = snapshotOf(g, g.closeBooks);
    }
  }

  /** One day: its picks posted, revised or deleted, its games closed and settled, grades corrected, removals. */
  async function playDay(day, pickCount) {
    const games = gamesOfDay(day);
    const openAt = games[0].startsAt.getTime() - 31 * HOUR_MS;
    prepareGames(games, openAt);
    const marketGames = games.filter((g) => g.market);
    const selfGames = games.filter((g) => !g.market);
    // Props are on the evening's last market game, on an event of its own (self-reported, as posted).
    const featured = marketGames.at(-1);
    const twin = featured && {
      ...featured,
      market: false,
      gameId: null,
      twinOf: featured,
      key: `${featured.key}|props`,
    };
    await timed('posting', async () => {
      await ingestGames(games, openAt);
      await selfReportedEvents(twin ? [...selfGames, twin] : selfGames);
    });
    const picks = [];
    for (let i = 0; i < pickCount; i++) {
      const pick = await makePick(drawCapper(), marketGames, selfGames, twin);
      if (pick) picks.push(pick);
    }
    await timed('posting', () => writePicks(picks));
    counts.games += games.filter((g) => g.legs).length + (twin?.legs ? 1 : 0);

    const actions = [];
    const at = (time, what, run) => actions.push({ time, what, run });
    // Before the first game: a few picks revised (a new version of the write-up), some deleted by their capper.
    // (Up to an hour before it: a start the feed moves earlier, below, moves it at most 45 minutes.)
    for (const pick of picks) {
      const window = pick.locksAt - HOUR_MS - pick.postedAt;
      if (window < 2 * MINUTE_MS) continue;
      const r = random.next();
      const time = pick.postedAt + MINUTE_MS + Math.floor(random.next() * (window - MINUTE_MS));
      if (r < 0.03) {
        at(time, 'revise', () => revise(pick, time));
        const later = time + Math.floor(random.next() * (pick.locksAt - HOUR_MS - time));
        if (r < 0.004 && later > time + 1000) at(later, 'revise', () => revise(pick, later));
      } else if (r < 0.035) {
        pick.deleted = true;
        counts.deletedBeforeStart += 1;
        at(time, 'delete', () =>
          inTransaction((tx) => removePick(tx, pick.videoId, { moderation: false }, new Date(time))),
        );
      }
    }
    // A start the feed moves earlier, now and then (not the props' game): legs posted after the real start
    // are void. The feed tells it four minutes before the start it had said.
    const moved = marketGames.find((g) => g !== featured && g.legs > 20 && g.outcomeSeed % 401 === 0);
    if (moved) {
      const original = moved.startsAt.getTime();
      moved.realStart = original - 45 * MINUTE_MS;
      at(original - 4 * MINUTE_MS, 'move', async () => {
        moved.startsAt = new Date(moved.realStart);
        const { moved: starts } = await db.transaction((tx) =>
          ingestSchedule(tx, PROVIDER, [providerGame(moved)]),
        );
        await market.applyMovedStarts(starts, new Date(original - 4 * MINUTE_MS));
        counts.movedStarts += 1;
      });
    }
    // At each start: the closing prices ingested two minutes before, the game closed on the next tick.
    const slots = new Map();
    for (const g of marketGames) {
      const start = g.startsAt.getTime();
      if (!slots.has(start)) slots.set(start, []);
      slots.get(start).push(g);
    }
    for (const [start, slotGames] of slots) {
      at(start - 2 * MINUTE_MS, 'prices', () => {
        const open = slotGames.filter((g) => g.startsAt.getTime() === start);
        if (!open.length) return;
        return ingestOdds(
          db,
          PROVIDER,
          prepareOdds({
            data: open.map((g) => ({ game: providerGame(g), books: g.closeBooks })),
            quota: NO_QUOTA,
          }),
          new Date(start - 2 * MINUTE_MS),
        );
      });
      at(start + MINUTE_MS, 'close', () => market.closeStarted(new Date(start + MINUTE_MS)));
    }
    // After each game: its score; the props' event by an admin, then each prop graded by hand.
    const admin_ = { id: admin.id };
    const toSettle = [...games.filter((g) => g.legs), ...(twin?.legs ? [twin] : [])];
    for (const g of toSettle) {
      const source = g.twinOf ? g.twinOf : g;
      const eventId = g.market ? g.eventId : g.selfEventId;
      const time =
        (g.realStart ?? g.startsAt.getTime()) +
        GAME_HOURS[g.league] * HOUR_MS +
        (g.twinOf ? 10 * MINUTE_MS : 0);
      at(time, 'settle', () => {
        const by = g.market ? { adminId: null, source: PROVIDER } : { adminId: admin.id, source: 'admin' };
        return settleEvent(db, eventId, source.outcome, by, new Date(time));
      });
      if (source.outcome.status !== 'final') {
        counts.postponedOrCancelled += g.twinOf ? 0 : 1;
        continue;
      }
      if (g.twinOf)
        at(time + 30 * MINUTE_MS, 'props', async () => {
          const legs = await q(
            `select id from pick_legs where event_id = $1 and market = 'prop' order by id`,
            [eventId],
          );
          for (const { id } of legs) {
            const result = random.weighted({ win: 46, loss: 50, push: 2, void: 2 });
            await gradeLegByHand(
              db,
              id,
              result,
              'Graded from the official box score.',
              admin_,
              new Date(time + 30 * MINUTE_MS),
            );
            if (random.chance(0.08)) {
              const later = time + 16 * HOUR_MS;
              const after = result === 'win' ? 'loss' : 'win';
              at(later, 'prop correction', async () => {
                await gradeLegByHand(
                  db,
                  id,
                  after,
                  'The league corrected the stat after review.',
                  admin_,
                  new Date(later),
                );
                counts.propCorrections += 1;
              });
            }
          }
        });
      else if (random.chance(0.005)) {
        const later = time + 14 * HOUR_MS;
        at(later, 'correction', async () => {
          const o = source.outcome;
          const corrected = random.chance(0.5)
            ? { ...o, homeScore: o.homeScore + 1 }
            : { ...o, awayScore: o.awayScore + (o.awayScore > 0 && random.chance(0.5) ? -1 : 1) };
          await correctEvent(
            db,
            eventId,
            corrected,
            admin_,
            'The official score was corrected after review.',
            new Date(later),
          );
          counts.corrections += 1;
        });
      }
    }
    // After grading: removals by the capper (kept on the record) and by moderation (off it).
    for (const pick of picks) {
      if (pick.deleted) continue;
      const r = random.next();
      const done = pick.lastStart + 4 * HOUR_MS;
      if (r < 0.01) {
        at(done + 6 * HOUR_MS, 'remove', () =>
          inTransaction((tx) =>
            removePick(tx, pick.videoId, { moderation: false }, new Date(done + 6 * HOUR_MS)),
          ),
        );
        counts.removedByCapper += 1;
      } else if (r < 0.013) {
        at(done + 16 * HOUR_MS, 'moderate', () =>
          inTransaction((tx) =>
            removePick(tx, pick.videoId, { moderation: true }, new Date(done + 16 * HOUR_MS)),
          ),
        );
        counts.removedByModeration += 1;
      }
    }
    actions.sort((a, b) => a.time - b.time);
    // The list grows while it runs (a prop's correction is planned when it is graded): run until empty.
    await timed('serverActions', async () => {
      while (actions.length) {
        actions.sort((a, b) => a.time - b.time);
        const action = actions.shift();
        await action.run();
      }
    });
    return picks.length;
  }

  async function inTransaction(fn) {
    await db.transaction(fn);
  }

  async function revise(pick, time) {
    const selections = `${pick.selections} (updated)`;
    await inTransaction((tx) =>
      revisePick(
        tx,
        { id: pick.videoId, title: pick.title, selections: pick.selections },
        { id: pick.capper.id, username: pick.capper.username },
        { selections },
        null,
        new Date(time),
      ),
    );
    pick.selections = selections;
    counts.revisions += 1;
  }

  function pickGame(list, capper, used) {
    const free = list.filter((g) => !used.has(g));
    if (!free.length) return null;
    const weights = free.map((g) => capper.leagues[g.league] ?? 1);
    let r = random.next() * weights.reduce((a, b) => a + b, 0);
    for (let i = 0; i < free.length; i++) if ((r -= weights[i]) < 0) return free[i];
    return free.at(-1);
  }

  /** A worse price than the best (a capper who took another book's number): never better, by rule. */
  function worse(odds) {
    const worsened = americanOf(1 / (decimalOdds(odds) - 0.04));
    return decimalOdds(worsened) <= decimalOdds(odds) ? worsened : odds;
  }

  /** One pick as the upload form would post it, its market legs bound by the server's bindLeg. */
  async function makePick(capper, marketGames, selfGames, twin, latestPost = Infinity) {
    const r = random.next();
    const kind =
      r < 1 - capper.parlays - 0.14
        ? 'single'
        : r < 1 - capper.parlays - 0.08
          ? 'straight'
          : r < 1 - 0.08
            ? 'parlay'
            : r < 1 - 0.05
              ? 'self'
              : r < 1 - 0.015
                ? 'self-multi'
                : r < 1 - 0.005
                  ? 'prop'
                  : 'market+prop';
    const chosen = [];
    const used = new Set();
    const marketLegs =
      kind === 'single'
        ? 1
        : kind === 'straight'
          ? 2 + random.int(2)
          : kind === 'parlay'
            ? 2 + random.int(3)
            : kind === 'market+prop'
              ? 1
              : 0;
    for (let i = 0; i < marketLegs; i++) {
      const g = pickGame(marketGames, capper, used);
      if (!g) break;
      used.add(g);
      chosen.push({ game: g, kind: 'market' });
    }
    if (kind === 'self' || kind === 'self-multi')
      for (let i = 0; i < (kind === 'self' ? 1 : 2); i++) {
        const g = pickGame(selfGames, capper, used);
        if (!g) break;
        used.add(g);
        chosen.push({ game: g, kind: 'self' });
      }
    if ((kind === 'prop' || kind === 'market+prop') && twin) chosen.push({ game: twin, kind: 'prop' });
    if (!chosen.length) return null;
    const parlay = kind === 'parlay' && chosen.length >= 2;
    const firstStart = Math.min(...chosen.map((c) => c.game.startsAt.getTime()));
    const postedAt =
      Math.floor(
        Math.min(
          firstStart - 5 * MINUTE_MS - random.next() ** 2 * 30 * HOUR_MS,
          latestPost - random.int(20 * 3600) * 1000,
        ) / 1000,
      ) * 1000;
    const stake = parlay ? random.pick([0.5, 1]) : capper.unit;
    const videoId = nextVideo++;
    const legs = [];
    for (const { game: g, kind: legKind } of chosen) {
      const units = parlay
        ? stake
        : Math.min(
            10,
            Math.round(stake * random.pick(chosen.length > 1 ? [1, 1, 1.5, 2] : [1, 1, 1, 1.5, 2]) * 10) / 10,
          );
      if (legKind === 'market') {
        // The prices of the moment: the opening ones until four hours before the start, then the closing ones.
        const late = g.startsAt.getTime() - postedAt < 4 * HOUR_MS;
        const prices = late ? g.closeSnapshot : g.openSnapshot;
        const book = random.pick(prices.books);
        const marketCode = random.weighted({ m: 35, s: 40, t: 25 });
        const offered = book.prices.filter(([m]) => m === marketCode);
        const [m, s, point] = random.pick(offered.length ? offered : book.prices);
        const marketName = { m: 'moneyline', s: 'spread', t: 'total' }[m];
        const side = { h: g.home, a: g.away, o: 'over', u: 'under' }[s];
        const snapshot = { takenAt: new Date(postedAt - random.int(240) * 1000), prices };
        const event = {
          id: g.eventId,
          league: g.league,
          home: g.home,
          away: g.away,
          startsAt: g.startsAt,
          status: 'scheduled',
          provider: PROVIDER,
          gameId: g.gameId,
        };
        const bound = await bindLeg(
          db,
          {
            league: g.league,
            home: g.home,
            away: g.away,
            startsAt: iso(g.startsAt.getTime()),
            market: marketName,
            side,
            line: point,
            odds: null,
            eventId: g.eventId,
          },
          new Date(postedAt),
          new Map([[g.eventId, { event, snapshot }]]),
        );
        const odds = random.chance(0.15) ? worse(bound.odds) : bound.odds;
        legs.push({
          sealed: sealedLeg({
            league: g.league,
            home: bound.home,
            away: bound.away,
            startsAt: bound.startsAt,
            market: marketName,
            side: bound.side,
            line: bound.line,
            odds,
            units,
            game: bound.game,
            price: bound.price,
          }),
          eventId: g.eventId,
          selfReported: false,
          pricedAt: bound.price.at,
          game: g,
        });
      } else if (legKind === 'self') {
        const marketName = random.weighted({ moneyline: 60, total: 40 });
        const home = random.chance(g.close.prob);
        const side = marketName === 'total' ? random.pick(['over', 'under']) : home ? g.home : g.away;
        const line = marketName === 'total' ? g.open.total : null;
        const p = marketName === 'total' ? 0.5 : home ? g.open.prob : 1 - g.open.prob;
        legs.push({
          sealed: sealedLeg({
            league: g.league,
            home: g.home,
            away: g.away,
            startsAt: iso(g.startsAt.getTime()),
            market: marketName,
            side,
            line,
            odds: americanOf(p * 1.045),
            units,
          }),
          eventId: g.selfEventId,
          selfReported: true,
          pricedAt: null,
          game: g,
        });
      } else {
        const points = 10 + random.int(25) + 0.5;
        legs.push({
          sealed: sealedLeg({
            league: g.league,
            home: g.home,
            away: g.away,
            startsAt: iso(g.startsAt.getTime()),
            market: 'prop',
            side: `${random.pick(PLAYERS)} over ${points} points`,
            line: points,
            odds: random.pick([-130, -120, -115, -110, 100, 105, 120]),
            units,
          }),
          eventId: g.selfEventId,
          selfReported: true,
          pricedAt: null,
          game: g,
        });
      }
    }
    const sealedLegs = legs.map((l) => l.sealed);
    const problem =
      parlayProblem({ legs: sealedLegs, parlay }) ??
      contradictionProblem(
        legs.map((l) => ({
          key: l.selfReported ? gameKey(l.sealed) : `event:${l.eventId}`,
          market: l.sealed.market,
          side: l.sealed.side,
        })),
      );
    if (problem) throw new Error(`the fill made a pick the server would refuse: ${problem}`);
    for (const l of legs) l.game.legs += 1;
    const selections = sealedLegs
      .map(
        (l) =>
          `${l.side}${l.line === null || l.market === 'prop' ? '' : ` ${l.line > 0 && l.market === 'spread' ? '+' : ''}${l.line}`} (${l.odds > 0 ? '+' : ''}${l.odds}, ${l.units}u)`,
      )
      .join('; ');
    const sealed = {
      v: 2,
      capper: capper.username,
      videoId,
      postedAt: iso(postedAt),
      selections,
      legs: sealedLegs,
      parlay,
      salt: hex(`bench salt ${videoId}`),
    };
    const bytes = canonicalBytes(sealed);
    const leagues = new Set(sealedLegs.map((l) => l.league));
    counts.picks += 1;
    counts.legs += legs.length;
    if (parlay) counts.parlays += 1;
    else if (legs.length > 1) counts.straightMultiLeg += 1;
    if (legs.some((l) => l.selfReported)) counts.selfReported += 1;
    if (legs.some((l) => l.sealed.market === 'prop')) counts.props += 1;
    return {
      videoId,
      capper,
      postedAt,
      locksAt: firstStart,
      lastStart: Math.max(...chosen.map((c) => c.game.startsAt.getTime())),
      league: leagues.size === 1 ? sealedLegs[0].league : 'Mixed',
      parlay,
      legs,
      selections,
      title:
        legs.length === 1
          ? `${sealedLegs[0].away} at ${sealedLegs[0].home}: ${sealedLegs[0].market}`
          : `${legs.length}-leg ${parlay ? 'parlay' : 'card'}, ${new Date(firstStart).toISOString().slice(0, 10)}`,
      sealedText: decoder.decode(bytes),
      commitment: sha256Hex(bytes),
      selfReported: legs.some((l) => l.selfReported),
    };
  }

  /** What postPick writes for each pick (its row, its first version, its legs, its `posted` entry), in bulk. */
  async function writePicks(picks) {
    if (!picks.length) return;
    picks.sort((a, b) => a.postedAt - b.postedAt || a.videoId - b.videoId);
    const at = picks.map((p) => new Date(p.postedAt).toISOString());
    await q(
      `insert into picks (video_id, user_id, league, parlay, leg_count, version, commitment, sealed, posted_at,
         first_posted_at, locks_at, title, self_reported)
       select p.video_id, p.user_id, p.league, p.parlay, p.leg_count, 1, p.commitment, p.sealed, p.at, p.at,
         p.locks_at, p.title, p.self_reported
       from unnest($1::int[], $2::int[], $3::text[], $4::bool[], $5::int[], $6::text[], $7::text[],
         $8::timestamptz[], $9::timestamptz[], $10::text[], $11::bool[])
         as p(video_id, user_id, league, parlay, leg_count, commitment, sealed, at, locks_at, title, self_reported)`,
      [
        picks.map((p) => p.videoId),
        picks.map((p) => p.capper.id),
        picks.map((p) => p.league),
        picks.map((p) => p.parlay),
        picks.map((p) => p.legs.length),
        picks.map((p) => p.commitment),
        picks.map((p) => p.sealedText),
        at,
        picks.map((p) => new Date(p.locksAt).toISOString()),
        picks.map((p) => p.title),
        picks.map((p) => p.selfReported),
      ],
    );
    await q(
      `insert into pick_versions (video_id, version, commitment, sealed, posted_at)
       select v.video_id, 1, v.commitment, v.sealed, v.at
       from unnest($1::int[], $2::text[], $3::text[], $4::timestamptz[]) as v(video_id, commitment, sealed, at)`,
      [picks.map((p) => p.videoId), picks.map((p) => p.commitment), picks.map((p) => p.sealedText), at],
    );
    const legs = picks.flatMap((p) => p.legs.map((l, position) => ({ ...l, videoId: p.videoId, position })));
    await q(
      `insert into pick_legs (video_id, position, event_id, market, side, line, odds, units, self_reported, book,
         market_odds, priced_at)
       select * from unnest($1::int[], $2::int[], $3::int[], $4::text[], $5::text[], $6::numeric[], $7::int[],
         $8::numeric[], $9::bool[], $10::text[], $11::int[], $12::timestamptz[])`,
      [
        legs.map((l) => l.videoId),
        legs.map((l) => l.position),
        legs.map((l) => l.eventId),
        legs.map((l) => l.sealed.market),
        legs.map((l) => l.sealed.side),
        legs.map((l) => l.sealed.line),
        legs.map((l) => l.sealed.odds),
        legs.map((l) => l.sealed.units),
        legs.map((l) => l.selfReported),
        legs.map((l) => l.sealed.price?.book ?? null),
        legs.map((l) => l.sealed.price?.odds ?? null),
        legs.map((l) => l.pricedAt),
      ],
    );
    await appendToLog(
      db,
      picks.map((p) => ({
        type: 'posted',
        videoId: p.videoId,
        capper: p.capper.username,
        commitment: p.commitment,
        at: new Date(p.postedAt),
        version: 1,
      })),
    );
  }

  /** The last entries: picks posted since yesterday on tomorrow's games, still open when the season stops. */
  async function postOpenPicks(day, until, count) {
    if (count === 0) return;
    const games = gamesOfDay(day).filter((g) => g.market);
    const openAt = until - 10 * MINUTE_MS;
    prepareGames(games, openAt);
    await timed('posting', () => ingestGames(games, openAt));
    const picks = [];
    while (picks.length < count) {
      // Posted within the last day, never after now.
      const pick = await makePick(drawCapper(), games, [], null, until - MINUTE_MS);
      if (pick) picks.push(pick);
    }
    await timed('posting', () => writePicks(picks));
    counts.openPicks = picks.length;
  }
} finally {
  await database.close();
}
