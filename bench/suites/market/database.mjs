// The `market` suite's work straight on the database, in a child process with the server's own settings
// and database code (as picks.mjs fills), the server stopped: the embedded database is one process's.
// Plain statements through the pool the server would use (PGlite's worker, or PostgreSQL): the references
// "with no code of ours in the way", the closing legs' fill, and the check that the legs got their CLV.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runBounded } from '../../lib/procs.mjs';
import { root } from '../../lib/server.mjs';

const distServer = path.join(root, 'dist/node/server');

const PRELUDE = `
const { loadConfig } = await import(process.env.BENCH_CONFIG_URL);
const { openConfiguredDatabase } = await import(process.env.BENCH_CLIENT_URL);
const input = JSON.parse(process.env.BENCH_INPUT);
const database = await openConfiguredDatabase(loadConfig());
const pool = database.db.$client;
if (!pool?.query) throw new Error('no pool behind the database');
const q = async (text, params) => (await pool.query(text, params)).rows;
const timed = async (text, params) => {
  const started = performance.now();
  const result = await pool.query(text, params);
  return { ms: performance.now() - started, rows: result.rows, count: result.rowCount };
};
const out = {};
try {
  await main();
  console.log('BENCH_OUT ' + JSON.stringify(out));
} finally {
  await database.close();
}
`;

async function inChild(env, body, input, timeoutMs = 900_000) {
  const script = `${PRELUDE}\nasync function main() {\n${body}\n}`;
  const result = await runBounded(process.execPath, ['--liftoff-only', '--input-type=module', '-e', script], {
    cwd: root,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      ...env,
      BENCH_CONFIG_URL: pathToFileURL(path.join(distServer, 'config.js')).href,
      BENCH_CLIENT_URL: pathToFileURL(path.join(distServer, 'db/client.js')).href,
      BENCH_INPUT: JSON.stringify(input),
    },
    timeoutMs,
  });
  const line = /^BENCH_OUT (.*)$/m.exec(result.stdout);
  if (result.code !== 0 || !line)
    throw new Error(`a database step failed: ${result.stderr || result.stdout}`);
  return JSON.parse(line[1]);
}

/**
 * The floor of an ingest's write: the same rows the server wrote (the slate's latest prices, read back),
 * upserted by one bare `insert … on conflict do update` (every price moved), and their time moved on by one
 * bare `update` (none moved), `rounds` times each; plus the two reads the server makes first (the games'
 * events by provider id, the stored digests), bare.
 */
export function ingestFloor(env, { gameIds, rounds }) {
  return inChild(
    env,
    `
  const rows = await q(\`select p.event_id, p.digest, p.prices::text as prices from event_prices p
    join events e on e.id = p.event_id where e.provider = 'the-odds-api' and e.game_id = any($1::text[])
    order by p.event_id\`, [input.gameIds]);
  const ids = rows.map((r) => r.event_id);
  const digests = rows.map((r) => r.digest);
  const prices = rows.map((r) => r.prices);
  out.rows = rows.length;
  out.jsonBytes = prices.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  out.upsertMs = [];
  out.touchMs = [];
  out.eventsReadMs = [];
  out.digestsReadMs = [];
  for (let r = 0; r < input.rounds; r++) {
    out.eventsReadMs.push((await timed(\`select id, league, home, away, starts_at, status, provider, game_id
      from events where provider = 'the-odds-api' and game_id = any($1::text[])\`, [input.gameIds])).ms);
    out.digestsReadMs.push((await timed('select event_id, digest from event_prices where event_id = any($1::int[])', [ids])).ms);
    const upsert = await timed(\`insert into event_prices (event_id, taken_at, digest, prices)
      select u.event_id, $1::timestamptz, u.digest, u.prices::jsonb
      from unnest($2::int[], $3::text[], $4::text[]) as u(event_id, digest, prices)
      on conflict (event_id) do update set taken_at = excluded.taken_at, digest = excluded.digest, prices = excluded.prices\`,
      [new Date().toISOString(), ids, digests, prices]);
    if (upsert.count !== ids.length) throw new Error('upsert wrote ' + upsert.count + ' rows, not ' + ids.length);
    out.upsertMs.push(upsert.ms);
    out.touchMs.push((await timed('update event_prices set taken_at = $1::timestamptz where event_id = any($2::int[])',
      [new Date().toISOString(), ids])).ms);
  }
`,
    { gameIds, rounds },
  );
}

/**
 * `legs` one-leg market picks (self_reported false, odds and the price's evidence as posting writes them)
 * on the games `gameIds`, in turn: spread, moneyline and total, each side in turn, at the lines the books
 * offer; posted an hour ago, locked at `locksAt`. Cappers of their own.
 */
export function fillClosingLegs(env, { gameIds, legs, cappers, locksAt, spread, total }) {
  return inChild(
    env,
    `
  const started = performance.now();
  const events = await q(\`select id from events where provider = 'the-odds-api' and game_id = any($1::text[]) order by id\`,
    [input.gameIds]);
  if (events.length !== input.gameIds.length) throw new Error(events.length + ' events for ' + input.gameIds.length + ' games');
  await q(\`insert into users (username, password_hash, username_key, username_skeleton, bio)
    select 'mcapper_' || g, 'x', 'mcapper_' || g, 'mcapper_' || g, 'Bench market capper ' || g
    from generate_series(1, $1::int) g\`, [input.cappers]);
  await q(\`insert into picks (video_id, user_id, league, parlay, leg_count, version, commitment, sealed,
      posted_at, first_posted_at, locks_at, title, self_reported)
    select 30000000 + g, (select min(id) from users where username like 'mcapper\\\\_%') + g % $2::int, 'NFL', false, 1, 1,
      encode(sha256(convert_to(g::text, 'UTF8')), 'hex'), '{"bench":"market"}',
      now() - interval '1 hour', now() - interval '1 hour', $3::timestamptz, 'Bench market pick ' || g, false
    from generate_series(1, $1::int) g\`, [input.legs, input.cappers, input.locksAt]);
  await q(\`with ev as (
      select e.id, e.home, e.away, (row_number() over (order by e.id)) - 1 as n from events e where e.id = any($2::int[]))
    insert into pick_legs (video_id, position, event_id, market, side, line, odds, units, self_reported, book,
      market_odds, priced_at)
    select 30000000 + g, 0, ev.id, m.market, m.side, m.line, m.odds, 1, false, 'draftkings', m.odds, now() - interval '1 hour'
    from generate_series(1, $1::int) g
    join ev on ev.n = g % $3::int
    cross join lateral (select
      (array['spread', 'moneyline', 'total'])[1 + g % 3] as market,
      case when g % 3 = 2 then (case when g % 2 = 0 then 'over' else 'under' end)
        else (case when g % 2 = 0 then ev.home else ev.away end) end as side,
      case g % 3 when 0 then (case when g % 2 = 0 then $4::numeric else -$4::numeric end)
        when 1 then null else $5::numeric end as line,
      case g % 3 when 1 then (case when g % 2 = 0 then -145 else 125 end) else -110 end as odds) m\`,
    [input.legs, events.map((e) => e.id), events.length, input.spread, input.total]);
  for (const table of ['users', 'events', 'event_prices', 'picks', 'pick_legs']) await q('analyze ' + table);
  out.events = events.length;
  out.legs = (await q('select count(*)::int as n from pick_legs where event_id = any($1::int[])', [events.map((e) => e.id)]))[0].n;
  out.seconds = (performance.now() - started) / 1000;
`,
    { gameIds, legs, cappers, locksAt, spread, total },
  );
}

/**
 * What the capture left on the closing games' legs (counts of closing odds, fair probabilities and CLV;
 * closings kept, latest prices dropped), then the floor of the capture, `rounds` times, in one transaction
 * each: the legs read (with their picks), the closings read, every leg's three figures written by one bare
 * update, the closings upserted.
 */
export function closingCheckAndFloor(env, { gameIds, rounds }) {
  return inChild(
    env,
    `
  const ids = (await q(\`select id from events where provider = 'the-odds-api' and game_id = any($1::text[])\`, [input.gameIds]))
    .map((e) => e.id);
  out.check = (await q(\`select count(*)::int as legs, count(closing_odds)::int as "closingOdds",
      count(closing_fair)::int as "closingFair", count(clv)::int as clv,
      round(avg(clv), 4)::float8 as "clvAverage", min(clv)::float8 as "clvMin", max(clv)::float8 as "clvMax"
    from pick_legs where event_id = any($1::int[]) and not self_reported\`, [ids]))[0];
  out.check.closings = (await q('select count(*)::int as n from event_closings where event_id = any($1::int[])', [ids]))[0].n;
  out.check.pricesLeft = (await q('select count(*)::int as n from event_prices where event_id = any($1::int[])', [ids]))[0].n;
  out.rounds = [];
  for (let r = 0; r < input.rounds; r++) {
    const client = await pool.connect();
    const step = async (text, params) => {
      const started = performance.now();
      const result = await client.query(text, params);
      return { ms: performance.now() - started, rows: result.rows, count: result.rowCount };
    };
    try {
      const started = performance.now();
      await client.query('begin');
      const legs = await step(\`select l.id, l.video_id, l.event_id, l.market, l.side, l.line::float8 as line, l.odds,
          l.closing_odds, l.closing_fair::float8 as closing_fair, l.clv::float8 as clv, p.result is not null as graded
        from pick_legs l join picks p on p.video_id = l.video_id
        where l.event_id = any($1::int[]) and not l.self_reported and l.market in ('moneyline', 'spread', 'total')\`, [ids]);
      const closings = await step('select event_id, taken_at, prices::text as prices from event_closings where event_id = any($1::int[])', [ids]);
      const update = await step(\`update pick_legs set closing_odds = c.odds, closing_fair = c.fair, clv = c.clv
        from unnest($1::int[], $2::int[], $3::numeric[], $4::numeric[]) as c(id, odds, fair, clv)
        where pick_legs.id = c.id\`, [legs.rows.map((l) => l.id), legs.rows.map((l) => l.closing_odds),
          legs.rows.map((l) => l.closing_fair), legs.rows.map((l) => l.clv)]);
      const upsert = await step(\`insert into event_closings (event_id, taken_at, closed_at, prices)
        select u.event_id, u.taken_at, $4::timestamptz, u.prices::jsonb
        from unnest($1::int[], $2::timestamptz[], $3::text[]) as u(event_id, taken_at, prices)
        on conflict (event_id) do update set taken_at = excluded.taken_at, closed_at = excluded.closed_at, prices = excluded.prices\`,
        [closings.rows.map((c) => c.event_id), closings.rows.map((c) => c.taken_at), closings.rows.map((c) => c.prices),
          new Date().toISOString()]);
      await client.query('commit');
      out.rounds.push({ totalMs: performance.now() - started, legsReadMs: legs.ms, legs: legs.rows.length,
        closingsReadMs: closings.ms, updateMs: update.ms, updated: update.count, closingsWriteMs: upsert.ms });
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
`,
    { gameIds, rounds },
  );
}
