// Many mails at once (alerts to a capper's followers): the outbox rows come from one `insert … select` and
// their sending from one send_mail_batch job per MAIL_BATCH_SIZE mails, in the caller's transaction, so a
// fan-out to 100,000 addresses is two statements, not 100,000 calls of queueMail (docs/decisions/040).
import { sql, type SQL } from '../db/drizzle.js';
import type { Executor } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import { ADDRESS_PATTERN } from './mail-message.js';
import { DEFAULT_MAILS_PER_HOUR } from './queue-mail.js';
import { sendMailBatchJob } from './send-mail-job.js';

/** Mails per send_mail_batch job: a retry redoes at most this many lookups, each sent mail is skipped. */
export const MAIL_BATCH_SIZE = 500;

export interface BulkMails {
  /** What the mails are ('pick_alert'): the per-address limit counts per kind. */
  kind: string;
  /**
   * A select giving one row per mail, with the columns `to_address`, `to_name` (or null), `subject`,
   * `text_body` and `unsubscribe_url` (or null; RFC 8058 headers are made from it).
   */
  rows: SQL;
  /** At most this many mails of this kind to one address in any hour; DEFAULT_MAILS_PER_HOUR otherwise. */
  perHour?: number;
}

/**
 * Writes the mails and queues their sending, inside `tx`. A row is left out when its address is not one
 * plain address, its subject or link is not one line, or the address already had `perHour` mails of this
 * kind in the last hour. The limit is counted on committed mails without a lock (a lock per address would
 * be 100,000 locks): two fan-outs running at the same moment may each pass an address at its limit's edge.
 * Returns how many mails were queued.
 */
export async function queueMails(tx: Executor, mails: BulkMails): Promise<number> {
  if (!/^[a-z][a-z0-9_]*$/.test(mails.kind)) throw new Error(`${mails.kind} is not a mail kind`);
  const perHour = mails.perHour ?? DEFAULT_MAILS_PER_HOUR;
  const result = await tx.execute(sql`
    with candidates as (${mails.rows}),
    recent as (
      select lower(m.to_address) as address, count(*) as n
      from mail_outbox m
      where m.kind = ${mails.kind} and m.created_at > now() - interval '1 hour'
        and lower(m.to_address) in (select lower(c.to_address) from candidates c)
      group by 1
    ),
    inserted as (
      insert into mail_outbox (to_address, to_name, kind, subject, text_body, headers)
      select c.to_address, nullif(c.to_name, ''), ${mails.kind}, left(c.subject, 200), c.text_body,
        case when c.unsubscribe_url is null then '{}'::jsonb
          else jsonb_build_object('List-Unsubscribe', '<' || c.unsubscribe_url || '>',
            'List-Unsubscribe-Post', 'List-Unsubscribe=One-Click') end
      from candidates c
      left join recent r on r.address = lower(c.to_address)
      where coalesce(r.n, 0) < ${perHour}
        and length(c.to_address) <= 254 and c.to_address ~ ${ADDRESS_PATTERN}
        and c.subject !~ '[[:cntrl:]]' and coalesce(c.to_name, '') !~ '[[:cntrl:]]'
        and (c.unsubscribe_url is null or c.unsubscribe_url ~ '^https?://[^[:space:][:cntrl:]<>]+$')
      returning id
    ),
    numbered as (
      select id, (row_number() over (order by id) - 1) / ${MAIL_BATCH_SIZE} as batch from inserted
    ),
    batches as (
      insert into jobs (kind, payload, key, max_attempts)
      select ${sendMailBatchJob.kind}, jsonb_build_object('mailIds', jsonb_agg(id order by id)),
        'mail-batch:' || min(id), ${sendMailBatchJob.retry.attempts}
      from numbered group by batch
      returning id
    )
    select (select count(*) from inserted)::int as mails`);
  return Number(rowsOf<{ mails: number }>(result)[0]?.mails ?? 0);
}
