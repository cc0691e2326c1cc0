// signLink (lib/signed-links.ts) written in SQL, for links in bulk mail: each of 100,000 rows gets its own
// token in the statement that writes it, and verifyLink checks it like any other. HMAC-SHA256 (RFC 2104)
// from PostgreSQL's sha256(), so no extension is needed, on PGlite or a server alike.
import { createHash } from 'node:crypto';
import { sql, type SQL } from '../db/drizzle.js';

const BLOCK = 64;

/** base64url without padding; encode(…, 'base64') also wraps its lines, which this drops. */
const base64url = (bytes: SQL) => sql`translate(encode(${bytes}, 'base64'), E'+/=\\n', '-_')`;

/**
 * A token for `payload` (an SQL `json_build_object(…)` of string and number values, without "x"), as
 * `signLink(secret, payload, expiresAt)` makes it.
 */
export function signedLinkSql(secret: string, payload: SQL, expiresAt: Date): SQL {
  let key = Buffer.from(secret, 'utf8');
  if (key.length > BLOCK) key = createHash('sha256').update(key).digest();
  const padded = Buffer.alloc(BLOCK);
  key.copy(padded);
  const inner = Buffer.from(padded.map((byte) => byte ^ 0x36));
  const outer = Buffer.from(padded.map((byte) => byte ^ 0x5c));
  const x = Math.floor(expiresAt.getTime() / 1000);
  const body = base64url(
    sql`convert_to(((${payload})::jsonb || jsonb_build_object('x', ${x}::bigint))::text, 'UTF8')`,
  );
  const hex = (bytes: Buffer) => sql`decode(${bytes.toString('hex')}, 'hex')`;
  return sql`(select b || '.' || ${base64url(
    sql`sha256(${hex(outer)} || sha256(${hex(inner)} || convert_to(b, 'UTF8')))`,
  )} from (select ${body} as b) as body)`;
}
