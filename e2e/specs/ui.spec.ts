import { expect, type Page, test } from '@playwright/test';
import { idle, openChat, send, shot, toolCard } from './support.ts';

/** The bottom of the last text bubble stays inside the message list: the view followed the answer to its end. */
async function lastTextVisible(page: Page): Promise<boolean> {
  const list = await page.getByTestId('messages').boundingBox();
  const text = await page.getByTestId('message-text').last().boundingBox();
  return list !== null && text !== null && text.y + text.height <= list.y + list.height + 1;
}

test.describe('the chat on a phone (390 × 844)', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the chat fills the screen, nothing overflows sideways, cart and tools open as a drawer', async ({ page }) => {
    await openChat(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const newChat = await page.getByTestId('new-chat').boundingBox();
    expect(newChat && newChat.x + newChat.width).toBeLessThanOrEqual(390);
    await expect(page.getByTestId('side-panel')).toBeHidden();
    expect((await page.getByTestId('messages').boundingBox())?.height).toBeGreaterThan(844 * 0.6);

    await page.getByTestId('panel-toggle').click();
    await expect(page.getByTestId('panel-toggle')).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByTestId('cart')).toBeVisible();
    await page.getByTestId('panel-close').click();
    await expect(page.getByTestId('side-panel')).toBeHidden();

    await send(page, 'Where is order A-1002?');
    await expect(toolCard(page, 'query_order')).toHaveAttribute('data-state', 'done');
    await idle(page);
    await expect.poll(() => lastTextVisible(page)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'phone-layout');
  });
});

test.describe('the composer', () => {
  test('focus stays in the message box after Send, so typing on does not hit Stop; it comes back after a keyboard Deny', async ({ page }) => {
    await openChat(page);
    const input = page.getByTestId('chat-input');
    await send(page, 'Hello! What can you do for me?');
    await expect(input).toBeFocused();
    await expect(page.getByTestId('stop')).toBeVisible();
    // A space while Stop had focus used to abort the turn and lose the text.
    await page.keyboard.type(' next question');
    await idle(page);
    await expect(page.getByTestId('message-stopped')).toHaveCount(0);
    await expect(input).toHaveValue(' next question');
    await expect(input).toBeFocused();
    await expect.poll(() => lastTextVisible(page)).toBe(true);

    await send(page, 'Change the delivery date of order A-1010 to 2026-12-30');
    const card = toolCard(page, 'update_delivery_date');
    await expect(card).toHaveAttribute('data-state', 'awaiting-approval');
    await card.getByTestId('deny').focus();
    await page.keyboard.press('Enter');
    await expect(card).toHaveAttribute('data-state', 'denied');
    await idle(page);
    await expect(input).toBeFocused();
  });

  test('an over-long message is refused before it is sent', async ({ page }) => {
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/chat')) posts.push(request.url());
    });
    await openChat(page);
    const input = page.getByTestId('chat-input');
    await input.fill('x'.repeat(20_001));
    const limit = page.getByTestId('composer-limit');
    await expect(limit).toHaveAttribute('data-state', 'over');
    await expect(limit).toContainText('20,001 / 20,000');
    await expect(limit.getByRole('alert')).toContainText('Too long to send');
    await expect(input).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('send')).toBeDisabled();
    await input.press('Enter');
    await expect(page.getByTestId('message-user')).toHaveCount(0);
    expect(posts).toEqual([]);
    await input.press('Backspace');
    await expect(limit).toHaveAttribute('data-state', 'near');
    await expect(page.getByTestId('send')).toBeEnabled();
  });

  test('a request refused as too large (413) says so, and removing the last message gets the chat going again', async ({ page }) => {
    await openChat(page);
    // Inflate one request past the server's 512 KB limit, as a long history would.
    await page.route(
      '**/api/chat',
      async (route) => {
        const body = JSON.parse(route.request().postData() ?? '{}') as { messages: { parts: { text?: string }[] }[] };
        const part = body.messages.at(-1)?.parts[0];
        if (part) part.text = 'y'.repeat(600_000);
        await route.continue({ postData: JSON.stringify(body) });
      },
      { times: 1 },
    );
    await send(page, 'This request will be too large');
    const banner = page.getByTestId('error-banner');
    await expect(banner).toHaveAttribute('data-status', '413');
    await expect(banner).toContainText('Remove the last message, or start a new chat');
    await expect(page.getByTestId('error-new-chat')).toBeVisible();
    await page.getByTestId('error-remove-last').click();
    await expect(banner).toHaveCount(0);
    await expect(page.getByTestId('message-user')).toHaveCount(0);
    await send(page, 'Where is order A-1002?');
    await expect(toolCard(page, 'query_order')).toHaveAttribute('data-state', 'done');
    await idle(page);
    await expect(banner).toHaveCount(0);
  });
});
