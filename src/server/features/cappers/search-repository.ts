// GET /api/cappers?q=: cappers by username or display name.
import { sql } from '#server/db/drizzle.js';
import type { Executor } from '#server/db/client.js';
import { rowsOf } from '#server/db/rows.js';

export interface CapperMatchRow {
  username: string;
  displayName: string | null;
  avatarUrl: string | null;
}

/** `%`, `_` and `\` typed by the visitor are literal characters, not LIKE wildcards. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Cappers whose username or display name holds `text` (any case): a username equal to it first, then names
 * that start with it, then the rest, each by username. Only users with at least one ready video: a bettor
 * who never posted has no storefront worth finding. The ready video is one probe of videos_user_id_idx.
 */
export async function searchCappers(db: Executor, text: string, limit: number): Promise<CapperMatchRow[]> {
  const escaped = escapeLike(text);
  const anywhere = sql`lower(${`%${escaped}%`})`;
  const prefix = sql`lower(${`${escaped}%`})`;
  const result = await db.execute(sql`
    select u.username, u.display_name as "displayName", u.avatar_url as "avatarUrl"
    from users u
    where (lower(u.username) like ${anywhere} or lower(u.display_name) like ${anywhere})
      and exists (select 1 from videos v where v.user_id = u.id and v.transcoding_status = 'ready')
    order by lower(u.username) = lower(${text}) desc,
      (lower(u.username) like ${prefix} or coalesce(lower(u.display_name) like ${prefix}, false)) desc,
      lower(u.username), u.id
    limit ${limit}`);
  return rowsOf<CapperMatchRow>(result);
}
