import { expect, type Page, test } from '@playwright/test';
import { deliveryDate, idle, openChat, send, shot, toolCard } from './support.ts';

/** Where the app keeps each tab's conversation (apps/web/src/lib/chat-storage.ts): a slot per tab, named in sessionStorage. */
const SLOT_PREFIX = 'edgetool.chat:';
const TAB_KEY = 'edgetool.chat.tab';
/** Where version 1 kept the one conversation of all tabs. */
const LEGACY_KEY = 'edgetool.chat';

/** The localStorage keys of the saved conversations. */
const savedKeys = (page: Page): Promise<string[]> => page.evaluate((prefix) => Object.keys(localStorage).filter((key) => key.startsWith(prefix)), SLOT_PREFIX);

/** The texts of the user's messages on a page. */
const userTexts = (page: Page) => page.getByTestId('message-user').getByTestId('message-text');

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
    await expect(userTexts(page)).toHaveText(['Where is order A-1004?']);
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
    expect(await savedKeys(page)).toEqual([]);
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
    // The reload comes after the answer ended: what the page saved asks again. (A reload between the card and the
    // answer's end, a few milliseconds later, is a resume, and local `wrangler dev` does not tell the Worker that the
    // page went until a second write to it fails: docs/resumable.md. resume.spec.ts reloads mid-answer.)
    await idle(page);

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

  for (const [label, key, stored] of [
    ['not JSON', `${SLOT_PREFIX}e2e`, '{"v":2,"id":'],
    ['an old format', `${SLOT_PREFIX}e2e`, JSON.stringify([{ role: 'user', content: 'hello' }])],
    ['messages of the wrong shape', `${SLOT_PREFIX}e2e`, JSON.stringify({ v: 2, id: 'x1', mode: 'internal', messages: [{ id: 'm1', role: 'user', parts: 'hello' }], rev: 1, savedAt: 1 })],
    ['a version 1 record of the wrong shape', LEGACY_KEY, JSON.stringify({ v: 1, id: 'x1', mode: 'internal', messages: [{ id: 'm1', role: 'user', parts: 'hello' }] })],
  ] as const) {
    test(`stored data that is ${label} is ignored: the app starts a fresh chat`, async ({ page }) => {
      await page.addInitScript(
        ({ key, stored, tabKey }) => {
          sessionStorage.setItem(tabKey, 'e2e');
          localStorage.setItem(key, stored);
        },
        { key, stored, tabKey: TAB_KEY },
      );
      await openChat(page);
      await expect(page.getByTestId('welcome')).toBeVisible();
      await expect(page.getByTestId('resume-offer')).toHaveCount(0);
      await send(page, 'Where is order A-1002?');
      await expect(toolCard(page, 'query_order')).toHaveAttribute('data-state', 'done');
      await idle(page);
    });
  }

  test('a conversation version 1 kept comes back in the tab that loads first', async ({ page }) => {
    const messages = [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Where is order A-1002?' }] }];
    await page.addInitScript(
      ({ key, stored }) => {
        if (localStorage.getItem('e2e.once') !== null) return;
        localStorage.setItem(key, stored);
        localStorage.setItem('e2e.once', '1');
      },
      { key: LEGACY_KEY, stored: JSON.stringify({ v: 1, id: 'legacy-chat', mode: 'internal', messages }) },
    );
    await openChat(page);
    await expect(userTexts(page)).toHaveText(['Where is order A-1002?']);
    expect(await page.evaluate((key) => localStorage.getItem(key), LEGACY_KEY)).toBeNull();
    expect(await savedKeys(page)).toHaveLength(1);
  });

  test('a stopped answer stays stopped after a reload, and the browser tool it stopped does not ask again', async ({ page }) => {
    await openChat(page);
    await send(page, '/pick_date {"question":"Which day suits you?"}');
    const card = toolCard(page, 'pick_date');
    await expect(page.getByTestId('date-picker')).toBeVisible();
    await page.getByTestId('stop').click();
    await idle(page);
    await expect(card).toHaveAttribute('data-state', 'interrupted');
    await expect(page.getByTestId('message-assistant').last().getByTestId('message-stopped')).toBeVisible();

    await page.reload();
    await expect(card).toHaveAttribute('data-state', 'interrupted');
    await expect(page.getByTestId('message-assistant').last().getByTestId('message-stopped')).toBeVisible();
    await expect(page.getByTestId('date-picker')).toHaveCount(0);
    await expect(page.getByTestId('stop')).toHaveCount(0);

    // A streamed answer stopped halfway is marked after a reload too, and the chat goes on.
    await send(page, 'Hello! What can you do for me?');
    await expect(page.getByTestId('message-assistant').last().getByTestId('message-text').last()).not.toBeEmpty({ timeout: 30_000 });
    await page.getByTestId('stop').click();
    await idle(page);
    const cut = await page.getByTestId('message-assistant').last().getByTestId('message-text').allTextContents();
    await page.reload();
    await expect(page.getByTestId('message-assistant')).toHaveCount(2);
    await expect(page.getByTestId('message-stopped')).toHaveCount(2);
    await expect(page.getByTestId('message-assistant').last().getByTestId('message-text')).toHaveText(cut);
    await shot(page, 'stopped-after-reload');
    await send(page, 'Where is order A-1002?');
    await expect(toolCard(page, 'query_order')).toHaveAttribute('data-state', 'done');
    await idle(page);
  });

  test('an answer still streaming when the page reloads, with nothing at the Worker to resume, comes back marked as cut short, and the chat goes on', async ({ page }) => {
    await openChat(page);
    // The Worker has nothing to resume (as after its 30 seconds of work after a disconnect, or a recording that expired).
    await page.route('**/api/chat/*/stream', (route) => route.fulfill({ status: 204 }));
    await send(page, 'Hello! What can you do for me?');
    await expect(page.getByTestId('message-assistant').last().getByTestId('message-text').last()).not.toBeEmpty({ timeout: 30_000 });
    await expect(page.getByTestId('stop')).toBeVisible();
    await page.reload();
    // The reload cut the answer: it came back looking finished, with nothing to say so.
    await expect(page.getByTestId('message-assistant')).toHaveCount(1);
    await expect(page.getByTestId('message-assistant').last().getByTestId('message-stopped')).toBeVisible();
    await expect(page.getByTestId('stop')).toHaveCount(0);
    await send(page, 'Where is order A-1002?');
    await expect(toolCard(page, 'query_order')).toHaveAttribute('data-state', 'done');
    await idle(page);
    await expect(page.getByTestId('error-banner')).toHaveCount(0);
  });

  test("a message a reload cut off before any of its answer came says so; it is not sent by itself, Retry sends it once", async ({ page }) => {
    await openChat(page);
    // The server has not answered yet when the page reloads: the request is held, and the reload ends it.
    await page.route('**/api/chat', () => undefined, { times: 1 });
    await send(page, 'Where is order A-1002?');
    await expect(page.getByTestId('thinking')).toBeVisible();
    const sent: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/chat') sent.push(request.method());
    });
    await page.reload();
    // It came back as the last message with nothing to say it got no answer, and nothing to send it again.
    const banner = page.getByTestId('error-banner');
    await expect(banner).toHaveAttribute('data-code', 'unanswered');
    await expect(banner).toContainText('Your message got no answer');
    await expect(banner).toContainText('The page was reloaded before any of the answer to your message came.');
    await expect(banner).toContainText('It is not sent again by itself');
    await expect(userTexts(page)).toHaveText(['Where is order A-1002?']);
    await expect(page.getByTestId('message-assistant')).toHaveCount(0);
    expect(sent).toEqual([]);
    await page.getByTestId('error-retry').dblclick();
    await expect(toolCard(page, 'query_order')).toHaveAttribute('data-state', 'done');
    await idle(page);
    await expect(banner).toHaveCount(0);
    await expect(page.getByTestId('message-assistant').last()).toContainText('A-1002');
    await expect(page.getByTestId('message-user')).toHaveCount(1);
    expect(sent).toEqual(['POST']);
    // Answered now: the next reload brings no banner.
    await page.reload();
    await expect(page.getByTestId('message-assistant')).toHaveCount(1);
    await expect(banner).toHaveCount(0);
  });

  test('browser-side traces and progress come back after a reload', async ({ page }) => {
    await openChat(page);
    await send(page, '/cart_add {"name":"pens","quantity":3}');
    const cartCard = toolCard(page, 'cart_add');
    await expect(cartCard).toHaveAttribute('data-state', 'done');
    const browserChain = cartCard.locator('[data-testid="trace-timeline"] [data-side="client"]');
    await expect(browserChain).toHaveCount(1);
    const spans = await browserChain.getByTestId('trace-span').count();
    expect(spans).toBeGreaterThan(0);
    const duration = await cartCard.getByTestId('tool-duration').textContent();
    await idle(page);
    await send(page, '/audit_orders {}');
    const audit = toolCard(page, 'audit_orders');
    await expect(audit).toHaveAttribute('data-state', 'done');
    await expect(audit.getByTestId('tool-progress-text')).toHaveText(/^Checked (\d+) of \1 open orders$/);
    const progress = await audit.getByTestId('tool-progress-text').textContent();
    await idle(page);

    await page.reload();
    await expect(cartCard).toHaveAttribute('data-state', 'done');
    await expect(browserChain).toHaveCount(1);
    await expect(browserChain.getByTestId('trace-span')).toHaveCount(spans);
    await expect(cartCard.getByTestId('tool-duration')).toHaveText(duration ?? '');
    await expect(audit.getByTestId('tool-progress-text')).toHaveText(progress ?? '');
    await expect(audit.getByTestId('tool-progress')).toHaveAttribute('data-running', 'false');
    await expect(page.getByTestId('cart-item')).toHaveCount(1);
    await shot(page, 'traces-after-reload');
  });
});

test.describe('a server that repeats a call id', () => {
  test("a later step with a finished browser call's id runs nothing, before or after a reload: its card says it was not run", async ({ page }) => {
    await openChat(page);
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/chat')) posts.push(request.postData() ?? '');
    });
    // The continuation that carries cart_add's result is answered by a hostile (or buggy) server: a step that repeats
    // the call's id with new arguments and a ticket. Our Worker never sends one (it renames a model's repeated ids).
    await page.route('**/api/chat', (route) => {
      const body = route.request().postDataJSON() as { messages: { role: string; parts: { toolCallId?: string }[] }[] };
      const last = body.messages.at(-1);
      if (last?.role !== 'assistant') return route.continue();
      const id = last.parts.find((part) => part.toolCallId !== undefined)?.toolCallId ?? '';
      const chunks = [
        { type: 'start' },
        { type: 'start-step' },
        { type: 'tool-input-available', toolCallId: id, toolName: 'cart_add', input: { name: 'pens', quantity: 97 } },
        { type: 'data-edgetool-ticket', id, data: { toolCallId: id, toolName: 'cart_add', purpose: 'client-result', runsOn: 'client', ticket: 'et1.k1.repeat' } },
        { type: 'finish-step' },
        { type: 'finish' },
      ];
      const stream = `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`;
      return route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' }, body: stream });
    });
    await send(page, '/cart_add {"name":"pens","quantity":3}');
    const repeated = page.getByTestId('tool-card-repeated');
    await expect(repeated).toHaveCount(1);
    await idle(page);
    const cards = page.locator('[data-testid="tool-card"][data-tool-name="cart_add"]');
    const check = async () => {
      await expect(cards).toHaveCount(1);
      await expect(cards).toHaveAttribute('data-state', 'done');
      await expect(cards.getByTestId('tool-input')).toContainText('"quantity": 3');
      await expect(repeated).toContainText('Not run: the server sent another call with the id of the call above');
      await expect(page.getByTestId('cart-item')).toHaveText(['3 × pens']);
    };
    await check();
    expect(posts).toHaveLength(2);

    // After a reload the repeat read as a new call: it ran (97 more pens), its result went over the first one's, and
    // the continuation that carried it met the server's 403.
    await page.reload();
    await expect(repeated).toHaveCount(1);
    await idle(page);
    // A grace for a run to start, which must not come.
    await page.waitForTimeout(500);
    await check();
    await expect(page.getByTestId('error-banner')).toHaveCount(0);
    expect(posts).toHaveLength(2);
    await shot(page, 'repeated-call-id');

    // The next message meets the Worker's refusal of a history with one call id twice (duplicate-call), as every later
    // one would. The banner said to send a new message; it says what happened and offers New chat, after a reload too
    // (which showed "Your message got no answer" with a Retry that met the same 403).
    const id = await cards.getAttribute('data-tool-call-id');
    await send(page, 'What is 2+2?');
    const banner = page.getByTestId('error-banner');
    await expect(banner).toHaveAttribute('data-status', '403');
    const hint = banner.locator('.error-hint');
    const repeatedHint = `The server sent a second call with the id ${id} (its card above says "not run"), and it refuses a conversation`;
    await expect(hint).toContainText(repeatedHint);
    await expect(hint).not.toContainText('Send a new message');
    await expect(banner.getByTestId('error-retry')).toHaveCount(0);
    await idle(page);
    await page.reload();
    await expect(hint).toContainText(repeatedHint);
    await expect(banner.getByTestId('error-retry')).toHaveCount(0);
    expect(posts).toHaveLength(3);
    await banner.getByTestId('error-new-chat').click();
    await expect(page.getByTestId('message-user')).toHaveCount(0);
    await send(page, 'What is 2+2?');
    await expect(toolCard(page, 'calculate')).toHaveAttribute('data-state', 'done');
    await idle(page);
    await expect(banner).toHaveCount(0);
  });
});

test.describe('several tabs', () => {
  test('each tab keeps its own conversation: a reload brings back that tab’s, and its approvals still go through', async ({ page: first, context }) => {
    await openChat(first);
    await send(first, 'Change the delivery date of order A-1010 to 2027-02-10');
    const firstCard = toolCard(first, 'update_delivery_date');
    await expect(firstCard).toHaveAttribute('data-state', 'awaiting-approval');
    await idle(first);

    // A second tab starts a new chat; it offers the first tab's conversation without taking it.
    const second = await context.newPage();
    await openChat(second);
    await expect(second.getByTestId('welcome')).toBeVisible();
    await expect(second.getByTestId('resume-title')).toHaveText('Change the delivery date of order A-1010 to 2027-02-10');
    await shot(second, 'new-tab-offer');
    await send(second, 'Change the delivery date of order A-1010 to 2027-02-11');
    const secondCard = toolCard(second, 'update_delivery_date');
    await expect(secondCard).toHaveAttribute('data-state', 'awaiting-approval');
    await idle(second);

    await first.reload();
    await second.reload();
    await expect(userTexts(first)).toHaveText(['Change the delivery date of order A-1010 to 2027-02-10']);
    await expect(userTexts(second)).toHaveText(['Change the delivery date of order A-1010 to 2027-02-11']);
    expect(await savedKeys(first)).toHaveLength(2);

    // Each restored approval still carries a ticket bound to its own chat id: the server takes both answers.
    await secondCard.getByTestId('deny-reason').fill('the other tab decides');
    await secondCard.getByTestId('deny').click();
    await expect(secondCard).toHaveAttribute('data-state', 'denied');
    await idle(second);
    await firstCard.getByTestId('approve').click();
    await expect(firstCard).toHaveAttribute('data-state', 'done');
    await idle(first);
    expect(deliveryDate('A-1010')).toBe('2027-02-10');
    await expect(first.getByTestId('error-banner')).toHaveCount(0);
    await expect(second.getByTestId('error-banner')).toHaveCount(0);
  });

  test('a new tab continues the last conversation when asked, with the same chat, and keeps it across reloads', async ({ page: first, context }) => {
    await openChat(first);
    await send(first, 'Where is order A-1002?');
    await expect(toolCard(first, 'query_order')).toHaveAttribute('data-state', 'done');
    await idle(first);
    await first.close();

    const second = await context.newPage();
    await openChat(second);
    await expect(second.getByTestId('resume-title')).toHaveText('Where is order A-1002?');
    await second.getByTestId('resume-chat').click();
    await expect(userTexts(second)).toHaveText(['Where is order A-1002?']);
    await expect(second.getByTestId('resume-offer')).toHaveCount(0);
    await send(second, 'Where is order A-1004?');
    await expect(userTexts(second)).toHaveCount(2);
    await expect(toolCard(second, 'query_order').getByTestId('tool-output')).toContainText('Katherine Johnson');
    await idle(second);
    await expect(second.getByTestId('error-banner')).toHaveCount(0);
    await second.reload();
    await expect(userTexts(second)).toHaveText(['Where is order A-1002?', 'Where is order A-1004?']);
    expect(await savedKeys(second)).toHaveLength(1);
  });

  test('a duplicated tab (same sessionStorage) and its original both go on: neither loses what it showed', async ({ page: original, context }) => {
    await openChat(original);
    await send(original, 'Where is order A-1002?');
    await expect(toolCard(original, 'query_order')).toHaveAttribute('data-state', 'done');
    await idle(original);
    const slot = await original.evaluate((key) => sessionStorage.getItem(key), TAB_KEY);
    expect(slot).toBeTruthy();

    // "Duplicate tab" copies the sessionStorage, so the copy starts in the original's slot.
    const copy = await context.newPage();
    await copy.addInitScript(
      ({ key, slot }) => {
        if (sessionStorage.getItem(key) === null) sessionStorage.setItem(key, slot);
      },
      { key: TAB_KEY, slot: slot ?? '' },
    );
    await openChat(copy);
    await expect(userTexts(copy)).toHaveText(['Where is order A-1002?']);

    await send(copy, 'Where is order A-1004?');
    await expect(userTexts(copy)).toHaveCount(2);
    await idle(copy);
    await send(original, 'Where is order A-1010?');
    await expect(userTexts(original)).toHaveCount(2);
    await idle(original);

    await original.reload();
    await copy.reload();
    await expect(userTexts(original)).toHaveText(['Where is order A-1002?', 'Where is order A-1010?']);
    await expect(userTexts(copy)).toHaveText(['Where is order A-1002?', 'Where is order A-1004?']);
    expect(await savedKeys(original)).toHaveLength(2);
    // Both go on with the same chat: the server takes the next turn of either.
    await send(original, 'Where is order A-1004?');
    await expect(userTexts(original)).toHaveCount(3);
    await idle(original);
    await expect(original.getByTestId('error-banner')).toHaveCount(0);
  });
});
