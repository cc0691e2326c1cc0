import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { TableEmpty, TableError, TableLoading } from './admin-table';
import { PanelHeader } from './panel-header';

type AdminListPanelProps<T> = {
  /** The heading's id, which labels the section. */
  id: string;
  title: string;
  description: string;
  list: UseQueryResult<T[]>;
  /** What the spinner says while the list loads, e.g. "Loading users". */
  loadingLabel: string;
  /** spec 2: "Failed to load users: {message}". */
  errorPrefix: string;
  empty: ReactNode;
  /** The table of a list that has rows. */
  children: (rows: T[]) => ReactNode;
};

/** An admin tab's list: its heading with the count, then loading, error (with a retry), empty, or its table. */
export function AdminListPanel<T>({
  id,
  title,
  description,
  list,
  loadingLabel,
  errorPrefix,
  empty,
  children,
}: AdminListPanelProps<T>) {
  const { data: rows, isPending, isError, error, refetch, isFetching } = list;
  return (
    <section aria-labelledby={id} className="grid gap-4">
      <PanelHeader id={id} title={title} count={rows?.length} description={description} />
      {isPending ? (
        <TableLoading label={loadingLabel} />
      ) : isError ? (
        <TableError prefix={errorPrefix} error={error} onRetry={() => void refetch()} retrying={isFetching} />
      ) : rows.length === 0 ? (
        <TableEmpty>{empty}</TableEmpty>
      ) : (
        children(rows)
      )}
    </section>
  );
}
