import type { Page } from '@playwright/test';
import { expect, test, type ApiUser } from './admin-fixtures';
import { toasts } from './helpers';

/** A capper with a $50 bonus (granted by the signed-in admin) asks for a payout of `amount`. */
async function requestPayout(capper: ApiUser, amount: number) {
  const res = await capper.api.post('/api/payout-request', {
    data: { amount, paymentMethod: 'paypal', accountDetails: 'capper@example.com' },
  });
  expect(res.status(), await res.text()).toBe(201);
}

function payoutRow(page: Page, capper: ApiUser, amount: string) {
  return page
    .getByRole('table', { name: 'Payout requests' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: capper.username, exact: true }) })
    .filter({ hasText: amount });
}

test('an admin marks a payout paid and rejects another after confirming', async ({
  adminPage: page,
  createUser,
}) => {
  const capper = await createUser();
  const bonus = await page.request.patch(`/api/admin/users/${capper.id}/earnings`, {
    data: { manualEarnings: 50 },
  });
  expect(bonus.status(), await bonus.text()).toBe(200);
  await requestPayout(capper, 40);
  await requestPayout(capper, 10);

  await page.goto('/admin?tab=payouts');
  await expect(page.getByRole('tab', { name: 'Payouts', selected: true })).toBeVisible();
  const table = page.getByRole('table', { name: 'Payout requests' });
  await expect(table.getByRole('columnheader')).toHaveText([
    'Capper',
    'Amount',
    'Fee',
    'Net',
    'Method',
    'Details',
    'Requested',
    'Status',
    'Actions',
  ]);
  const big = payoutRow(page, capper, '$40.00');
  await expect(big.getByRole('cell')).toHaveText([
    '$40.00',
    '$4.00',
    '$36.00',
    'PayPal',
    'capper@example.com',
    new Date().toLocaleDateString('en-US'),
    'Pending',
    /Mark paid\s*Reject/,
  ]);

  await page.getByRole('button', { name: `Mark paid: $40.00 payout to ${capper.username}` }).click();
  await expect(toasts(page)).toContainText('Payout marked paid');
  await expect(big.getByRole('cell').nth(6)).toHaveText(/^Paid/);
  await expect(big.getByRole('button')).toHaveCount(0);

  const small = payoutRow(page, capper, '$10.00');
  const reject = page.getByRole('button', { name: `Reject: $10.00 payout to ${capper.username}` });
  await reject.click();
  const dialog = page.getByRole('dialog', { name: 'Reject Payout Request' });
  await expect(dialog).toContainText(`Reject ${capper.username}'s request for $10.00?`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(small.getByRole('cell').nth(6)).toHaveText('Pending');

  await reject.click();
  await dialog.getByRole('button', { name: 'Reject' }).click();
  await expect(toasts(page)).toContainText('Payout rejected');
  await expect(dialog).toBeHidden();
  await expect(small.getByRole('cell').nth(6)).toHaveText(/^Rejected/);

  // Paid stays spent, the rejected $10 is back: $50 bonus − $40 paid.
  const earnings = (await (await capper.api.get('/api/user/earnings')).json()) as { available: number };
  expect(earnings.available).toBe(10);
  const statuses = (await (await capper.api.get('/api/user/payouts')).json()) as { status: string }[];
  expect(statuses.map(({ status }) => status).sort()).toEqual(['paid', 'rejected']);
});
