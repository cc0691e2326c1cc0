import { useAdminPush } from '../api/get-admin-push';
import { AdminTable, Cell, HeaderCell, Row, StickyHeaderCell, TableError, TableLoading } from './admin-table';
import { PanelHeader } from './panel-header';

// Push alerts beside the mail (docs/decisions/038): how many browsers have them on, deliveries by state, and
// the subscriptions a push service refused (a 404 or 410 removes a subscription instead).
export function PushPanel() {
  const { data, isPending, isError, error, refetch, isFetching } = useAdminPush();
  return (
    <section aria-labelledby="admin-push-title" className="grid gap-4">
      <PanelHeader
        id="admin-push-title"
        title="Push alerts"
        description="Browsers with push alerts on, and what the push services answered."
      />
      {isPending ? (
        <TableLoading label="Loading push alerts" />
      ) : isError ? (
        <TableError
          prefix="Failed to load push alerts"
          error={error}
          onRetry={() => void refetch()}
          retrying={isFetching}
        />
      ) : (
        <>
          <p data-testid="admin-push-summary" className="text-sm tabular-nums">
            {data.subscriptions} browser{data.subscriptions === 1 ? '' : 's'} subscribed ·{' '}
            {data.deliveries.sent} sent · {data.deliveries.queued} waiting · {data.deliveries.failed} failed ·{' '}
            {data.deliveries.gone} gone
          </p>
          {data.failing.length > 0 && (
            <AdminTable caption="Subscriptions a push service refused">
              <thead>
                <tr>
                  <HeaderCell sticky>User</HeaderCell>
                  <HeaderCell>Push service</HeaderCell>
                  <HeaderCell>Failures</HeaderCell>
                  <HeaderCell>Last answer</HeaderCell>
                </tr>
              </thead>
              <tbody>
                {data.failing.map((row) => (
                  <Row key={row.id}>
                    <StickyHeaderCell>{row.username}</StickyHeaderCell>
                    <Cell>{row.host}</Cell>
                    <Cell>{row.failures}</Cell>
                    <Cell wrap>{row.lastError}</Cell>
                  </Row>
                ))}
              </tbody>
            </AdminTable>
          )}
        </>
      )}
    </section>
  );
}
