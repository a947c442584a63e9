import { expect, test } from '@playwright/test';
import { deliveryDate, idle, openChat, send, shot, toolCard } from './support.ts';

/** Where the app keeps the conversation (apps/web/src/lib/chat-storage.ts). */
const KEY = 'edgetool.chat';

test.describe('the conversation across a reload', () => {
  test('a reload brings back the messages, the calls and the mode; New chat forgets them', async ({ page }) => {
    await openChat(page);
    await page.getByTestId('mode-manual').click();
    await send(page, 'Where is order A-1004?');
    await expect(toolCard(page, 'query_order')).toHaveAttribute('data-state', 'done');
    await idle(page);
    const answer = await page.getByTestId('message-assistant').last().getByTestId('message-text').allTextContents();
    expect(answer.join(' ')).toContain('A-1004');

    await page.reload();
    await expect(page.getByTestId('welcome')).toHaveCount(0);
    await expect(page.getByTestId('message-user')).toHaveText(['Where is order A-1004?']);
    await expect(page.getByTestId('message-assistant').last().getByTestId('message-text')).toHaveText(answer);
    await expect(toolCard(page, 'query_order')).toHaveAttribute('data-state', 'done');
    await expect(toolCard(page, 'query_order').getByTestId('tool-output')).toContainText('Katherine Johnson');
    await expect(page.getByTestId('mode-switch')).toHaveAttribute('data-mode', 'manual');
    await shot(page, 'restored-after-reload');

    // The restored conversation goes on: the server takes its history as it was.
    await send(page, 'Where is order A-1002?');
    await expect(page.getByTestId('message-user')).toHaveCount(2);
    await expect(toolCard(page, 'query_order')).toHaveAttribute('data-state', 'done');
    await expect(toolCard(page, 'query_order').getByTestId('tool-output')).toContainText('Grace Hopper');
    await idle(page);

    await page.getByTestId('new-chat').click();
    await expect(page.getByTestId('welcome')).toBeVisible();
    expect(await page.evaluate((key) => localStorage.getItem(key), KEY)).toBeNull();
    await page.reload();
    await expect(page.getByTestId('welcome')).toBeVisible();
    await expect(page.getByTestId('message-user')).toHaveCount(0);
  });

  test('an approval that waited through a reload can still be approved, and the server runs it', async ({ page }) => {
    await openChat(page);
    await send(page, 'Change the delivery date of order A-1001 to 2027-01-20');
    const card = toolCard(page, 'update_delivery_date');
    await expect(card).toHaveAttribute('data-state', 'awaiting-approval');
    await idle(page);

    await page.reload();
    await expect(card).toHaveAttribute('data-state', 'awaiting-approval');
    await expect(page.getByTestId('composer-blocked')).toBeVisible();
    expect(deliveryDate('A-1001')).toBe('2026-11-28');
    await card.getByTestId('approve').click();
    await expect(card).toHaveAttribute('data-state', 'done');
    await idle(page);
    expect(deliveryDate('A-1001')).toBe('2027-01-20');
    await expect(page.getByTestId('error-banner')).toHaveCount(0);
    await expect(page.getByTestId('message-assistant').last()).toContainText('2027-01-20');

    // The answered approval stays answered after another reload: no buttons, nothing runs again.
    await page.reload();
    await expect(card).toHaveAttribute('data-state', 'done');
    await expect(card.getByTestId('approve')).toHaveCount(0);
    await expect(page.getByTestId('composer-blocked')).toHaveCount(0);
  });

  test('a browser tool that asked first asks again after a reload', async ({ page }) => {
    await openChat(page);
    await send(page, '/cart_add {"name":"mugs","quantity":2}');
    await expect(toolCard(page, 'cart_add')).toHaveAttribute('data-state', 'done');
    await idle(page);
    await send(page, '/cart_clear {}');
    await expect(toolCard(page, 'cart_clear')).toHaveAttribute('data-state', 'awaiting-approval');

    await page.reload();
    const card = toolCard(page, 'cart_clear');
    await expect(card).toHaveAttribute('data-state', 'awaiting-approval');
    await expect(page.getByTestId('cart-item')).toHaveCount(1);
    await card.getByTestId('approve').click();
    await expect(card).toHaveAttribute('data-state', 'done');
    await expect(card.getByTestId('tool-output')).toContainText('"removed": 2');
    await idle(page);
    await expect(page.getByTestId('cart-item')).toHaveCount(0);
  });

  for (const [label, stored] of [
    ['not JSON', '{"v":1,"id":'],
    ['an old format', JSON.stringify([{ role: 'user', content: 'hello' }])],
    ['messages of the wrong shape', JSON.stringify({ v: 1, id: 'x1', mode: 'internal', messages: [{ id: 'm1', role: 'user', parts: 'hello' }] })],
  ] as const) {
    test(`stored data that is ${label} is ignored: the app starts a fresh chat`, async ({ page }) => {
      await page.addInitScript(({ key, stored }) => localStorage.setItem(key, stored), { key: KEY, stored });
      await openChat(page);
      await expect(page.getByTestId('welcome')).toBeVisible();
      await send(page, 'Where is order A-1002?');
      await expect(toolCard(page, 'query_order')).toHaveAttribute('data-state', 'done');
      await idle(page);
    });
  }
});
