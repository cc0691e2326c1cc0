import type { MouseEvent } from 'react';
import { DollarSign, Trash2 } from 'lucide-react';
import type { AdminUser } from '#common/schemas/admin.js';
import { formatDollars } from '#common/money.js';
import { Button } from '#client/components/ui/button.tsx';
import { CardList, DataCard, DataField, ResponsiveTable } from '#client/components/ui/responsive-table.tsx';
import { useAdminUsers } from '../api/get-admin-users';
import { AdminTable, Cell, HeaderCell, LocalDate, None, Row, StickyHeaderCell } from './admin-table';
import { AdminListPanel } from './admin-list-panel';

type UsersPanelProps = {
  onEditEarnings: (user: AdminUser, opener: HTMLElement) => void;
  onDelete: (user: AdminUser, opener: HTMLElement) => void;
};

export function UsersPanel({ onEditEarnings, onDelete }: UsersPanelProps) {
  const list = useAdminUsers();

  return (
    <AdminListPanel
      id="admin-users-title"
      title="Users"
      description="Manage all users in the system. View details about each user."
      list={list}
      loadingLabel="Loading users"
      errorPrefix="Failed to load users"
      empty="No users found"
    >
      {(users) => (
        <ResponsiveTable
          table={
            <AdminTable caption="Users">
              <thead>
                <tr>
                  <HeaderCell>ID</HeaderCell>
                  <HeaderCell sticky>Username</HeaderCell>
                  <HeaderCell>Email</HeaderCell>
                  <HeaderCell>Phone</HeaderCell>
                  <HeaderCell>Password</HeaderCell>
                  <HeaderCell>Admin</HeaderCell>
                  <HeaderCell className="text-right">Manual Earnings</HeaderCell>
                  <HeaderCell>Created</HeaderCell>
                  <HeaderCell>Actions</HeaderCell>
                </tr>
              </thead>
              <tbody>
                {users.map((user) => (
                  <Row key={user.id}>
                    <Cell className="text-muted-foreground tabular-nums">{user.id}</Cell>
                    <StickyHeaderCell>
                      <span className="block max-w-36 truncate sm:max-w-none" title={user.username}>
                        {user.username}
                      </span>
                    </StickyHeaderCell>
                    <Cell>{user.email || <None />}</Cell>
                    <Cell className="tabular-nums">{user.phoneNumber || <None />}</Cell>
                    {/* docs/product-decisions.md 'Security overrides': the column stays,
                    a secret never reaches the browser. */}
                    <Cell className="font-mono text-muted-foreground">{user.password}</Cell>
                    <Cell>
                      {user.isAdmin ? (
                        <span className="rounded-full bg-primary/10 px-2 py-0.5 text-xs font-semibold text-primary">
                          Yes
                        </span>
                      ) : (
                        'No'
                      )}
                    </Cell>
                    <Cell className="text-right tabular-nums">{formatDollars(user.manualEarnings ?? 0)}</Cell>
                    <Cell>
                      <LocalDate iso={user.createdAt} />
                    </Cell>
                    <Cell>
                      <UserActions user={user} onEditEarnings={onEditEarnings} onDelete={onDelete} />
                    </Cell>
                  </Row>
                ))}
              </tbody>
            </AdminTable>
          }
          cards={
            <CardList label="Users">
              {users.map((user) => (
                <DataCard
                  key={user.id}
                  title={user.username}
                  actions={<UserActions user={user} onEditEarnings={onEditEarnings} onDelete={onDelete} />}
                >
                  <DataField label="ID" numeric>
                    {user.id}
                  </DataField>
                  <DataField label="Email">{user.email || <None />}</DataField>
                  <DataField label="Phone" numeric>
                    {user.phoneNumber || <None />}
                  </DataField>
                  <DataField label="Admin">{user.isAdmin ? 'Yes' : 'No'}</DataField>
                  <DataField label="Manual Earnings" numeric>
                    {formatDollars(user.manualEarnings ?? 0)}
                  </DataField>
                  <DataField label="Created">
                    <LocalDate iso={user.createdAt} />
                  </DataField>
                </DataCard>
              ))}
            </CardList>
          }
        />
      )}
    </AdminListPanel>
  );
}

function UserActions({ user, onEditEarnings, onDelete }: { user: AdminUser } & UsersPanelProps) {
  return (
    <div className="flex gap-2 *:flex-1">
      <Button
        variant="outline"
        size="sm"
        aria-label={`Earnings for ${user.username}`}
        onClick={(event: MouseEvent<HTMLButtonElement>) => onEditEarnings(user, event.currentTarget)}
      >
        <DollarSign aria-hidden />
        Earnings
      </Button>
      {/* spec 6: admins cannot be deleted, so the button is not offered (the server refuses too). */}
      {!user.isAdmin && (
        <Button
          variant="destructive"
          size="sm"
          aria-label={`Delete user ${user.username}`}
          onClick={(event: MouseEvent<HTMLButtonElement>) => onDelete(user, event.currentTarget)}
        >
          <Trash2 aria-hidden />
          Delete
        </Button>
      )}
    </div>
  );
}
