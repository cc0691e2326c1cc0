// The outbox's SQL (docs/decisions/036): the mail module alone writes mail_outbox.
import { and, desc, eq, inArray, lt, sql } from '../db/drizzle.js';
import type { Executor } from '../db/client.js';
import { mailOutbox } from '../db/schema.js';

export type MailRow = typeof mailOutbox.$inferSelect;
export type MailStatus = 'queued' | 'sent' | 'failed' | 'outbox';

export async function insertMail(
  db: Executor,
  mail: Pick<
    typeof mailOutbox.$inferInsert,
    'toAddress' | 'toName' | 'kind' | 'subject' | 'textBody' | 'htmlBody' | 'headers'
  >,
): Promise<MailRow> {
  const [row] = await db.insert(mailOutbox).values(mail).returning();
  return row!;
}

/** How many mails of this kind went to this address in the last hour, and when the oldest of them did. */
export async function recentMails(
  db: Executor,
  address: string,
  kind: string,
): Promise<{ count: number; oldest: Date | null }> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int`, oldest: sql<string | null>`min(${mailOutbox.createdAt})` })
    .from(mailOutbox)
    .where(
      and(
        sql`lower(${mailOutbox.toAddress}) = lower(${address})`,
        eq(mailOutbox.kind, kind),
        sql`${mailOutbox.createdAt} > now() - interval '1 hour'`,
      ),
    );
  return { count: Number(row?.count ?? 0), oldest: row?.oldest ? new Date(row.oldest) : null };
}

export function findMail(db: Executor, id: number): Promise<MailRow | undefined> {
  return db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.id, id))
    .then((rows) => rows[0]);
}

/** Counts an attempt of a queued mail; false when it is no longer queued (sent, failed or kept). */
export async function startAttempt(db: Executor, id: number, messageId: string): Promise<boolean> {
  const rows = await db
    .update(mailOutbox)
    .set({ attempts: sql`${mailOutbox.attempts} + 1`, messageId })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'queued')))
    .returning({ id: mailOutbox.id });
  return rows.length > 0;
}

export async function markMail(
  db: Executor,
  id: number,
  status: MailStatus,
  lastError: string | null = null,
): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ status, lastError, ...(status === 'sent' && { sentAt: sql`now()` }) })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'queued')));
}

/**
 * Counts an attempt of each of these still queued, in one statement, with the Message-ID every attempt of
 * a mail carries (`<mail-ID.CREATED_MS@domain>`, as the single mail's path makes it); the rows to send.
 */
export async function startAttempts(
  db: Executor,
  ids: readonly number[],
  domain: string,
): Promise<MailRow[]> {
  if (ids.length === 0) return [];
  return db
    .update(mailOutbox)
    .set({
      attempts: sql`${mailOutbox.attempts} + 1`,
      messageId: sql`'<mail-' || ${mailOutbox.id} || '.' || floor(extract(epoch from ${mailOutbox.createdAt}) * 1000)::bigint || '@' || ${domain} || '>'`,
    })
    .where(and(inArray(mailOutbox.id, [...ids]), eq(mailOutbox.status, 'queued')))
    .returning();
}

/** These mails were sent: one statement for many. */
export async function markSent(db: Executor, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(mailOutbox)
    .set({ status: 'sent', lastError: null, sentAt: sql`now()` })
    .where(and(inArray(mailOutbox.id, [...ids]), eq(mailOutbox.status, 'queued')));
}

/** Mails kept for an admin to read (no SMTP server): those of these still queued, in one statement. */
export async function keepInOutbox(db: Executor, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(mailOutbox)
    .set({ status: 'outbox' })
    .where(and(inArray(mailOutbox.id, [...ids]), eq(mailOutbox.status, 'queued')));
}

/** A failed attempt that will be retried: the mail stays queued, with why. */
export async function noteMailError(db: Executor, id: number, lastError: string): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ lastError })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'queued')));
}

/** Newest first, those with an id below `before` when given. */
export function listMails(
  db: Executor,
  page: { before?: number | undefined; limit: number },
): Promise<MailRow[]> {
  return db
    .select()
    .from(mailOutbox)
    .where(page.before === undefined ? undefined : lt(mailOutbox.id, page.before))
    .orderBy(desc(mailOutbox.id))
    .limit(page.limit);
}
