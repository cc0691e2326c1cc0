import { useEffect, type ReactNode } from 'react';
import { Link, useSearch } from 'wouter';
import { AlertTriangle, ScrollText } from 'lucide-react';
import { PRODUCT_NAME, USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH } from '#common/constants.js';
import {
  fromBase64,
  parseCheckpoint,
  parseEntry,
  parseSignedNote,
  toBase64,
  type Checkpoint,
  type LogEntry,
} from '#common/pick-log/index.js';
import { Button } from '#client/components/ui/button.tsx';
import { Card } from '#client/components/ui/card.tsx';
import { Skeleton } from '#client/components/ui/skeleton.tsx';
import { errorMessage } from '#client/lib/error-message.ts';
import { useDocumentTitle } from '#client/lib/use-document-title.ts';
import { useLogCheckpoint } from '../api/get-log-checkpoint';
import { useRecentLogEntries, type RecentEntriesPage } from '../api/get-log-entries';
import { useLogKey } from '../api/get-log-key';
import { CopyText } from '#client/components/ui/copy-text.tsx';
import { entryTitle } from '#common/pick-log/entry-title.js';
import { useLogPicks, type LogPick } from '../api/get-log-picks';
import { entryLabel, formatLogTime } from '../lib/log-format';

/** The explanation the home page's "How to check it" opens at. */
const HOW_TO_CHECK_ID = 'how-to-check';

// The registration rule's characters (schemas/auth.ts): nothing a shell would read as more than a word, so
// a link cannot put anything else into the command a visitor copies.
const USERNAME = /^[\p{L}\p{N}_.-]+$/u;

function capperOf(search: string): string | null {
  const capper = new URLSearchParams(search).get('capper')?.trim() ?? '';
  const fits = capper.length >= USERNAME_MIN_LENGTH && capper.length <= USERNAME_MAX_LENGTH;
  return fits && USERNAME.test(capper) ? capper : null;
}

/** The public pick log — its signed head, its key, how to check it without us, its newest entries. */
export function LogPage() {
  useDocumentTitle('Public pick log');
  const capper = capperOf(useSearch());
  const checkpoint = useLogCheckpoint();
  const parsed = checkpoint.data === undefined ? null : parseNote(checkpoint.data);
  // Arriving from "How to check it" (a link within the app, which does not scroll to its anchor).
  useEffect(() => {
    const id = window.location.hash.slice(1);
    if (id) document.getElementById(id)?.scrollIntoView();
  }, []);

  return (
    <div className="mx-auto grid w-full max-w-5xl min-w-0 gap-10 px-4 py-8 sm:px-6 lg:px-8">
      <header className="grid gap-3">
        <h1 className="flex items-center gap-3 text-3xl font-bold tracking-tight">
          <ScrollText aria-hidden className="size-7 shrink-0 text-primary" />
          Public pick log
        </h1>
        <p className="max-w-prose text-muted-foreground">
          Every sealed pick on {PRODUCT_NAME} — its posting, each revision, its grade and any removal — is
          appended to this public log, which can only grow and whose signed checkpoint changes if anything in
          it is altered or taken out. Anyone can download it and check a capper&apos;s record against it with
          a program that does not trust {PRODUCT_NAME}.
        </p>
      </header>

      <HowToCheck />

      <Section id="checkpoint-heading" title="Latest checkpoint">
        {checkpoint.isPending ? (
          <Skeleton className="h-40 w-full rounded-card" />
        ) : checkpoint.isError ? (
          <LoadError what="the checkpoint" error={checkpoint.error} retry={() => void checkpoint.refetch()} />
        ) : (
          <CheckpointCard note={checkpoint.data} parsed={parsed} />
        )}
      </Section>

      <Section id="key-heading" title="Verifier key">
        <VerifierKey />
      </Section>

      <Section id="verify-heading" title="Verify it yourself">
        <VerifyCommand capper={capper} />
      </Section>

      <Section id="entries-heading" title="Recent entries">
        {checkpoint.isPending ? (
          <EntriesSkeleton />
        ) : checkpoint.isError ? (
          <p className="text-sm text-muted-foreground">The entries are listed once the checkpoint loads.</p>
        ) : parsed && 'error' in parsed ? (
          <p className="text-sm text-muted-foreground">
            No entries can be listed without a readable checkpoint.
          </p>
        ) : (
          parsed && <RecentEntries treeSize={parsed.checkpoint.size} />
        )}
      </Section>
    </div>
  );
}

type ParsedNote = { checkpoint: Checkpoint } | { error: string };

function parseNote(note: string): ParsedNote {
  try {
    return { checkpoint: parseCheckpoint(parseSignedNote(note).text) };
  } catch (error) {
    return { error: errorMessage(error) };
  }
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="grid min-w-0 gap-4">
      <h2 id={id} className="text-lg font-semibold tracking-tight">
        {title}
      </h2>
      {children}
    </section>
  );
}

function LoadError({ what, error, retry }: { what: string; error: unknown; retry: () => void }) {
  return (
    <div className="grid justify-items-start gap-3 rounded-card border border-destructive/30 bg-card p-5">
      <p role="alert" className="flex items-center gap-2 text-destructive">
        <AlertTriangle aria-hidden className="size-5 shrink-0" />
        Could not load {what}: {errorMessage(error)}
      </p>
      <Button variant="outline" size="sm" onClick={retry}>
        Try again
      </Button>
    </div>
  );
}

function CheckpointCard({ note, parsed }: { note: string; parsed: ParsedNote | null }) {
  return (
    <Card className="grid min-w-0 gap-4 p-5" data-testid="log-checkpoint">
      {parsed && 'checkpoint' in parsed ? (
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="text-muted-foreground">Origin</dt>
          <dd className="font-mono break-all" data-testid="checkpoint-origin">
            {parsed.checkpoint.origin}
          </dd>
          <dt className="text-muted-foreground">Tree size</dt>
          <dd className="font-semibold tabular-nums" data-testid="checkpoint-size">
            {parsed.checkpoint.size.toLocaleString('en-US')}{' '}
            {parsed.checkpoint.size === 1 ? 'entry' : 'entries'}
          </dd>
          <dt className="text-muted-foreground">Root hash</dt>
          <dd className="font-mono break-all" data-testid="checkpoint-root">
            {toBase64(parsed.checkpoint.rootHash)}
          </dd>
        </dl>
      ) : (
        parsed && (
          <p role="alert" className="text-sm text-destructive">
            This checkpoint cannot be read: {parsed.error}
          </p>
        )
      )}
      <div className="grid min-w-0 gap-1.5">
        <h3 className="text-sm font-semibold">Signed note, as served</h3>
        <pre
          className="overflow-x-auto rounded-md bg-muted p-3 font-mono text-xs leading-relaxed break-all whitespace-pre-wrap"
          data-testid="checkpoint-note"
        >
          {note}
        </pre>
        <p className="text-xs text-muted-foreground">
          The origin, size and root hash, signed with the log&apos;s Ed25519 key (C2SP checkpoint and signed
          note). From <code className="font-mono">/api/log/checkpoint</code>.
        </p>
      </div>
    </Card>
  );
}

function VerifierKey() {
  const key = useLogKey();
  if (key.isPending) return <Skeleton className="h-10 w-full" />;
  if (key.isError) return <LoadError what="the key" error={key.error} retry={() => void key.refetch()} />;
  return (
    <div className="grid gap-2">
      <CopyText value={key.data} label="the verifier key" testId="verifier-key" />
      <p className="text-xs text-muted-foreground">
        The key that signs every checkpoint: name, key id and public key. Keep a copy; if it ever changes, the
        log&apos;s history can no longer be trusted to be the same one.
      </p>
    </div>
  );
}

function VerifyCommand({ capper }: { capper: string | null }) {
  const site = window.location.origin;
  const command = `npm run verify -- ${site}${capper ? ` --capper ${capper}` : ''}`;
  return (
    <div className="grid gap-3">
      <p className="max-w-prose text-sm">
        In a copy of {PRODUCT_NAME}&apos;s source code, this command downloads the whole log, checks the
        signature and that the log only ever grew since it last looked, recomputes the tree and every revealed
        pick
        {capper ? (
          <>
            , and recomputes{' '}
            <Link
              href={`/cappers/${encodeURIComponent(capper)}`}
              className="font-medium text-primary hover:underline"
            >
              {capper}
            </Link>
            &apos;s record from the log alone, beside what the profile claims
          </>
        ) : (
          ''
        )}
        :
      </p>
      <CopyText value={command} label="the verify command" testId="verify-command" />
      {!capper && (
        <p className="text-xs text-muted-foreground">
          Add <code className="font-mono">--capper &lt;username&gt;</code> to recompute a capper&apos;s record
          (W-L-P, units, ROI) from the log and compare it with their profile.
        </p>
      )}
      <p className="text-xs text-muted-foreground" data-testid="log-tiles">
        Mirrors and transparency-log tools can read the same tree as C2SP tlog-tiles, with the prefix{' '}
        <code className="font-mono [overflow-wrap:anywhere]">{site}/api/log</code> (its checkpoint, tiles and
        entry bundles, which never change once served).
      </p>
    </div>
  );
}

type DecodedRow = { index: number } & ({ entry: LogEntry } | { error: string });

function decodeRows(page: RecentEntriesPage): DecodedRow[] {
  return page.entries.map((text, i): DecodedRow => {
    const index = page.start + i;
    try {
      return { index, entry: parseEntry(fromBase64(text)) };
    } catch (error) {
      return { index, error: errorMessage(error) };
    }
  });
}

/**
 * Newest first by the time each entry states (a game's result states when the game was settled, which may
 * be before an entry logged earlier), the later log position first among equal times; unreadable entries
 * by position, after the readable ones of their page.
 */
function newestFirst(a: DecodedRow, b: DecodedRow): number {
  const at = (row: DecodedRow) => ('entry' in row ? Date.parse(row.entry.at) : -Infinity);
  return at(b) - at(a) || b.index - a.index;
}

/** The video ids a page's pick entries name: the titles are asked for a page at a time. */
function videoIdsOf(rows: readonly DecodedRow[]): number[] {
  const ids = new Set<number>();
  for (const row of rows) if ('entry' in row && 'videoId' in row.entry) ids.add(row.entry.videoId);
  return [...ids];
}

function RecentEntries({ treeSize }: { treeSize: number }) {
  const entries = useRecentLogEntries(treeSize);
  const pages = (entries.data?.pages ?? []).map(decodeRows);
  const titles = useLogPicks(pages.map(videoIdsOf));
  if (treeSize === 0)
    return (
      <p className="rounded-card border border-dashed bg-card p-8 text-center text-muted-foreground">
        The log is empty: no pick has been posted yet.
      </p>
    );
  if (entries.isPending) return <EntriesSkeleton />;
  // A failed "Older entries" keeps the pages already shown (the query is in error with its data).
  if (entries.data === undefined)
    return <LoadError what="the entries" error={entries.error} retry={() => void entries.refetch()} />;
  const rows = pages.flat().sort(newestFirst);
  return (
    <div className="grid gap-4">
      <p className="text-sm text-muted-foreground" data-testid="log-order">
        Newest first, by the time each entry records. The number is the entry&apos;s place in the log.
      </p>
      <ol className="grid gap-2" aria-label="Log entries, newest first" data-testid="log-entries">
        {rows.map((row) => (
          <EntryRow key={row.index} row={row} titles={titles} />
        ))}
      </ol>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground" aria-live="polite">
          Showing {rows.length.toLocaleString('en-US')} of {treeSize.toLocaleString('en-US')}{' '}
          {treeSize === 1 ? 'entry' : 'entries'}
        </p>
        {entries.hasNextPage && (
          <Button
            variant="outline"
            onClick={() => void entries.fetchNextPage()}
            disabled={entries.isFetchingNextPage}
          >
            {entries.isFetchingNextPage ? 'Loading…' : 'Older entries'}
          </Button>
        )}
      </div>
      {entries.isFetchNextPageError && (
        <p role="alert" className="text-sm text-destructive">
          Could not load older entries: {errorMessage(entries.error)}
        </p>
      )}
    </div>
  );
}

const ROW = 'grid gap-1 rounded-lg border bg-card p-3 text-sm sm:grid-cols-[auto_1fr_auto] sm:gap-x-3';

function EntryRow({
  row,
  titles,
}: {
  row: DecodedRow;
  titles: { picks: Map<number, LogPick>; failed: boolean };
}) {
  if ('error' in row) {
    return (
      <li className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-destructive/40 p-3 text-sm">
        <span className="font-mono font-semibold tabular-nums">{entryLabel(row.index)}</span>
        <span className="text-destructive">Cannot be read: {row.error}</span>
      </li>
    );
  }
  const { entry } = row;
  const time = (
    <time dateTime={entry.at} className="text-muted-foreground sm:text-right">
      {formatLogTime(entry.at)}
    </time>
  );
  if (!('videoId' in entry))
    return (
      <li className={ROW} data-testid="log-entry">
        <span className="font-mono font-semibold tabular-nums">{entryLabel(row.index)}</span>
        <span className="min-w-0 break-words">
          <span className="font-semibold">{entryTitle(entry)}</span>
          <span className="text-muted-foreground"> · {entry.league}</span>
        </span>
        {time}
      </li>
    );
  return (
    <li className={ROW} data-testid="log-entry">
      <span className="font-mono font-semibold tabular-nums">{entryLabel(row.index)}</span>
      <span className="grid min-w-0 gap-0.5">
        <PickTitle videoId={entry.videoId} titles={titles} />
        <span className="break-words text-muted-foreground">
          <span className="font-medium text-foreground">{entryTitle(entry)}</span> · by{' '}
          <Link
            href={`/cappers/${encodeURIComponent(entry.capper)}`}
            className="font-medium break-all text-primary hover:underline"
          >
            {entry.capper}
          </Link>
        </span>
      </span>
      {time}
    </li>
  );
}

/** The pick's title, linked while its video exists; "deleted pick" once it is gone. */
function PickTitle({
  videoId,
  titles,
}: {
  videoId: number;
  titles: { picks: Map<number, LogPick>; failed: boolean };
}) {
  const pick = titles.picks.get(videoId);
  if (!pick) {
    // Not loaded (yet, or the titles failed): the entry still links to its pick.
    return titles.failed ? (
      <Link href={`/video/${videoId}`} className="font-semibold text-primary hover:underline">
        Pick {videoId}
      </Link>
    ) : (
      <Skeleton className="h-5 w-48 max-w-full" />
    );
  }
  if (pick.deleted)
    return (
      <span className="font-semibold break-words text-muted-foreground" data-testid="log-pick-title">
        {pick.title ? `${pick.title} (deleted pick)` : 'deleted pick'}
      </span>
    );
  return (
    <Link
      href={`/video/${videoId}`}
      className="font-semibold break-words text-primary hover:underline"
      data-testid="log-pick-title"
    >
      {pick.title ?? 'Removed pick'}
    </Link>
  );
}

/** What "verified" means and the ways to check it: where the home page's "How to check it" leads. */
function HowToCheck() {
  return (
    <section
      id={HOW_TO_CHECK_ID}
      aria-labelledby="how-to-check-title"
      className="grid scroll-mt-24 gap-4 rounded-card border bg-card p-5"
    >
      <h2 id="how-to-check-title" className="text-lg font-semibold tracking-tight">
        What &ldquo;verified&rdquo; means, and how to check it
      </h2>
      <ol className="grid list-decimal gap-3 pl-5 text-sm marker:font-semibold">
        <li>
          <strong>Sealed before the game.</strong> When a capper posts a pick, its SHA-256 commitment is
          published and logged here: the legs cannot change afterwards without changing that value, and sales
          close when the first game starts.
        </li>
        <li>
          <strong>Graded from the final scores.</strong> Each leg is graded by rule from its game&apos;s final
          score, which is logged too; a correction is logged with the score before and after and the reason.
        </li>
        <li>
          <strong>Every grade in a public log.</strong> Posting, grading, scores and corrections are appended
          to this log, which can only grow. On any pick&apos;s page, <em>Verify log</em> checks its entries in
          your browser; the command under{' '}
          <a href="#verify-heading" className="font-medium text-primary hover:underline">
            Verify it yourself
          </a>{' '}
          checks the whole log, or one capper&apos;s record, without trusting {PRODUCT_NAME}.
        </li>
      </ol>
    </section>
  );
}

function EntriesSkeleton() {
  return (
    <div className="grid gap-2" role="status">
      <span className="sr-only">Loading the entries…</span>
      {Array.from({ length: 5 }, (_, i) => (
        <Skeleton key={i} className="h-12 w-full rounded-lg" />
      ))}
    </div>
  );
}
