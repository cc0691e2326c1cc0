import { useRef, useState } from 'react';
import { Banknote, Film, Mail, ScrollText, Trophy, Users } from 'lucide-react';
import { useLocation, useSearch } from 'wouter';
import type { AdminUser } from '#common/schemas/admin.js';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#client/components/ui/tabs.tsx';
import { useDocumentTitle } from '#client/lib/use-document-title.ts';
import type { AdminPayout } from '../api/get-admin-payouts';
import { AuditLogPanel } from '../components/audit-log-panel';
import { DeleteDialog, type DeleteTarget } from '../components/delete-dialog';
import { EarningsDialog } from '../components/earnings-dialog';
import { MailPanel } from '../components/mail-panel';
import { PushPanel } from '../components/push-panel';
import { PayoutsPanel } from '../components/payouts-panel';
import { RejectPayoutDialog } from '../components/reject-payout-dialog';
import { ResultsPanel } from '../components/results-panel';
import { UsersPanel } from '../components/users-panel';
import { VideosPanel } from '../components/videos-panel';

const TABS = ['users', 'videos', 'payouts', 'results', 'audit', 'mail'] as const;
type AdminTab = (typeof TABS)[number];

function parseTab(search: string): AdminTab {
  const tab = new URLSearchParams(search).get('tab');
  return TABS.find((candidate) => candidate === tab) ?? 'users';
}

/** What a dialog is open for (spec 4: one selection at a time, cleared when the dialog closes). */
type Selection =
  | { dialog: 'delete'; target: DeleteTarget }
  | { dialog: 'earnings'; user: AdminUser }
  | { dialog: 'reject'; payout: AdminPayout };

// Only admins get here: the route guard in app/ turns everyone else away (spec 2, Admin dashboard).
export function AdminPage() {
  useDocumentTitle('Admin Dashboard');
  const search = useSearch();
  const [, navigate] = useLocation();
  // The tab lives in the URL, as on the auth page, so a reload or a shared link opens the same one.
  const tab = parseTab(search);
  const showTab = (next: AdminTab) =>
    navigate(next === 'users' ? '/admin' : `/admin?tab=${next}`, { replace: true });

  const [selection, setSelection] = useState<Selection | null>(null);
  // The dialogs are opened from table buttons, not Radix triggers, so focus is handed back by hand: to the
  // button that opened it, or, when its row is gone (deleted), to the tab panel.
  const openerRef = useRef<HTMLElement | null>(null);
  const select = (next: Selection, opener: HTMLElement) => {
    openerRef.current = opener;
    setSelection(next);
  };
  const clearSelection = () => setSelection(null);
  const restoreFocus = (event: Event) => {
    event.preventDefault();
    const opener = openerRef.current;
    if (opener?.isConnected) opener.focus();
    else document.querySelector<HTMLElement>('[role="tabpanel"][data-state="active"]')?.focus();
  };

  return (
    <div className="mx-auto grid w-full max-w-7xl gap-6 px-4 py-8 sm:px-6 lg:px-8">
      <h1 className="text-3xl font-bold tracking-tight">Admin Dashboard</h1>
      <Tabs value={tab} onValueChange={(value) => showTab(value as AdminTab)}>
        {/* Six tabs on a 320 px phone: two rows of three with their icons hidden; one row from sm up. cn() does
            not merge classes, so the phone's grid is a max-sm: variant, which wins over TabsList's inline-flex. */}
        <TabsList className="w-full grid-cols-3 max-sm:grid max-sm:h-auto sm:w-auto [&>*]:px-1.5 max-sm:[&>*]:h-9 sm:[&>*]:px-4">
          <TabsTrigger value="users">
            <Users aria-hidden className="hidden size-4 sm:block" />
            Users
          </TabsTrigger>
          <TabsTrigger value="videos">
            <Film aria-hidden className="hidden size-4 sm:block" />
            Videos
          </TabsTrigger>
          <TabsTrigger value="payouts">
            <Banknote aria-hidden className="hidden size-4 sm:block" />
            Payouts
          </TabsTrigger>
          <TabsTrigger value="results">
            <Trophy aria-hidden className="hidden size-4 sm:block" />
            Results
          </TabsTrigger>
          <TabsTrigger value="audit">
            <ScrollText aria-hidden className="hidden size-4 sm:block" />
            Audit log
          </TabsTrigger>
          <TabsTrigger value="mail">
            <Mail aria-hidden className="hidden size-4 sm:block" />
            Mail
          </TabsTrigger>
        </TabsList>
        <TabsContent value="users">
          <UsersPanel
            onEditEarnings={(user, opener) => select({ dialog: 'earnings', user }, opener)}
            onDelete={(user, opener) => select({ dialog: 'delete', target: { kind: 'user', user } }, opener)}
          />
        </TabsContent>
        <TabsContent value="videos">
          <VideosPanel
            onDelete={(video, opener) =>
              select({ dialog: 'delete', target: { kind: 'video', video } }, opener)
            }
          />
        </TabsContent>
        <TabsContent value="payouts">
          <PayoutsPanel onReject={(payout, opener) => select({ dialog: 'reject', payout }, opener)} />
        </TabsContent>
        <TabsContent value="results">
          <ResultsPanel />
        </TabsContent>
        <TabsContent value="audit">
          <AuditLogPanel />
        </TabsContent>
        <TabsContent value="mail">
          <div className="grid gap-10">
            <MailPanel />
            <PushPanel />
          </div>
        </TabsContent>
      </Tabs>

      <DeleteDialog
        target={selection?.dialog === 'delete' ? selection.target : null}
        onClose={clearSelection}
        onCloseAutoFocus={restoreFocus}
      />
      <EarningsDialog
        user={selection?.dialog === 'earnings' ? selection.user : null}
        onClose={clearSelection}
        onCloseAutoFocus={restoreFocus}
      />
      <RejectPayoutDialog
        payout={selection?.dialog === 'reject' ? selection.payout : null}
        onClose={clearSelection}
        onCloseAutoFocus={restoreFocus}
      />
    </div>
  );
}
