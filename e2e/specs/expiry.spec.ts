import { expect, test } from '@playwright/test';
import { deliveryDate, idle, openChat, send, shot, toolCard } from './support.ts';

/**
 * The offline Worker runs with TEST_CLOCK=1: this header moves its ticket clock forward (apps/worker/src/api/chat.ts),
 * and Playwright's clock moves the browser's, so a ticket expires without waiting its 15 minutes.
 */
const SERVER_CLOCK = 'x-test-clock-offset-ms';
const LATER = 16 * 60_000;

test.describe('approvals whose ticket expired', () => {
  test('restored after it expired: the card says so, the composer is free, and Ask again brings a fresh approval', async ({ page, context }) => {
    await openChat(page);
    await send(page, 'Change the delivery date of order A-1004 to 2027-02-04');
    const card = toolCard(page, 'update_delivery_date');
    await expect(card).toHaveAttribute('data-state', 'awaiting-approval');
    await idle(page);
    await expect(page.getByTestId('composer-blocked')).toBeVisible();

    // Sixteen minutes later, for this browser and for the Worker.
    await page.clock.install({ time: Date.now() + LATER });
    await context.setExtraHTTPHeaders({ [SERVER_CLOCK]: String(LATER) });
    await page.reload();
    await expect(card).toHaveAttribute('data-state', 'expired');
    await expect(card.getByTestId('tool-state')).toHaveText('expired');
    await expect(card.getByTestId('tool-expired')).toContainText('This approval expired before it was answered, so nothing ran.');
    await expect(card.getByTestId('approve')).toHaveCount(0);
    await expect(page.getByTestId('composer-blocked')).toHaveCount(0);
    await expect(page.getByTestId('error-banner')).toHaveCount(0);
    await shot(page, 'approval-expired');

    await card.getByTestId('ask-again').click();
    await expect(page.getByTestId('message-user')).toHaveCount(2);
    await expect(page.getByTestId('message-user').last()).toContainText('Please ask me again.');
    const fresh = toolCard(page, 'update_delivery_date');
    await expect(fresh).toHaveAttribute('data-state', 'awaiting-approval');
    await expect(fresh.getByTestId('tool-input')).toContainText('2027-02-04');
    await expect(card.getByTestId('ask-again')).toHaveCount(0);
    await fresh.getByTestId('approve').click();
    await expect(fresh).toHaveAttribute('data-state', 'done');
    await idle(page);
    expect(deliveryDate('A-1004')).toBe('2027-02-04');
    await expect(page.getByTestId('error-banner')).toHaveCount(0);

    // Another reload: the old call is still expired, the new one done.
    await page.reload();
    await expect(page.locator('[data-testid="tool-card"][data-state="expired"]')).toHaveCount(1);
    await expect(fresh).toHaveAttribute('data-state', 'done');
  });

  test('refused as expired by the server (the clocks disagree): the card says so instead of a 403 banner, and nothing ran', async ({ page, context }) => {
    const before = deliveryDate('A-1012');
    await openChat(page);
    await send(page, 'Change the delivery date of order A-1012 to 2027-02-12');
    const card = toolCard(page, 'update_delivery_date');
    await expect(card).toHaveAttribute('data-state', 'awaiting-approval');
    await idle(page);

    // Only the Worker's clock moves on: this browser still sees a valid ticket and sends the approval.
    await context.setExtraHTTPHeaders({ [SERVER_CLOCK]: String(LATER) });
    const refused = page.waitForResponse((response) => response.url().endsWith('/api/chat') && response.request().method() === 'POST');
    await card.getByTestId('approve').click();
    const response = await refused;
    expect(response.status()).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: 'ticket-invalid', reason: 'expired', toolCallId: await card.getAttribute('data-tool-call-id') } });
    await expect(card).toHaveAttribute('data-state', 'expired');
    await expect(page.getByTestId('error-banner')).toHaveCount(0);
    await expect(page.getByTestId('composer-blocked')).toHaveCount(0);
    expect(deliveryDate('A-1012')).toBe(before);

    await send(page, 'Where is order A-1012?');
    await expect(toolCard(page, 'query_order')).toHaveAttribute('data-state', 'done');
    await idle(page);
    await expect(page.getByTestId('error-banner')).toHaveCount(0);
  });

  test('expiring while the page is open: the card stops asking and the composer is free', async ({ page }) => {
    await page.clock.install();
    await openChat(page);
    await send(page, 'Change the delivery date of order A-1010 to 2027-02-20');
    const card = toolCard(page, 'update_delivery_date');
    await expect(card).toHaveAttribute('data-state', 'awaiting-approval');
    await idle(page);
    await expect(page.getByTestId('composer-blocked')).toBeVisible();

    await page.clock.fastForward('16:00');
    await expect(card).toHaveAttribute('data-state', 'expired');
    await expect(card.getByTestId('approve')).toHaveCount(0);
    await expect(page.getByTestId('composer-blocked')).toHaveCount(0);
    await expect(card.getByTestId('ask-again')).toBeVisible();
  });

  test('a browser tool that asked first and expired does not ask or run after a reload', async ({ page }) => {
    await openChat(page);
    await send(page, '/cart_add {"name":"cups","quantity":2}');
    await expect(toolCard(page, 'cart_add')).toHaveAttribute('data-state', 'done');
    await idle(page);
    await send(page, '/cart_clear {}');
    const card = toolCard(page, 'cart_clear');
    await expect(card).toHaveAttribute('data-state', 'awaiting-approval');

    await page.clock.install({ time: Date.now() + LATER });
    await page.reload();
    await expect(card).toHaveAttribute('data-state', 'expired');
    await expect(card.getByTestId('tool-expired')).toContainText('This approval expired');
    await expect(card.getByTestId('approve')).toHaveCount(0);
    await expect(page.getByTestId('cart-item')).toHaveCount(1);
    await expect(page.getByTestId('composer-blocked')).toHaveCount(0);
  });
});
