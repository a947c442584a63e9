import { expect, test } from '@playwright/test';
import { deliveryDate, idle, openChat, queryD1, send, shot, slowNextTurn, toolCard } from './support.ts';

// Resumable answers (useEdgeChat({ resume: true }) in the demo, the Worker's GET and DELETE /api/chat/:id/stream): a
// reload mid-answer does not lose the answer. The offline Worker streams slowly (OFFLINE_DELAY_MS=30).

/** The recordings of one chat in the offline Worker's D1 (the key names the owner and the chat). */
const recordings = (chatId: string) =>
  queryD1<{ turn_id: string; ended: string | null }>('offline', `SELECT turn_id, ended FROM chat_streams WHERE key LIKE '%${JSON.stringify(chatId).replace(/'/g, '')}]'`);

/** The id of the page's chat, from the conversation it saved. */
const chatIdOf = (page: import('@playwright/test').Page) =>
  page.evaluate(() => {
    const slot = sessionStorage.getItem('edgetool.chat.tab');
    const saved = slot === null ? null : localStorage.getItem(`edgetool.chat:${slot}`);
    return saved === null ? undefined : (JSON.parse(saved) as { id: string }).id;
  });

test.describe('a reload mid-answer', () => {
  test('the answer goes on at the Worker and completes after the reload; the turn ran once, recorded once', async ({ page }) => {
    const requests: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/api/chat')) requests.push(`${request.method()} ${pathname.replace(/\/api\/chat\/[^/]+\/stream$/, '/api/chat/:id/stream')}`);
    });
    await openChat(page);
    await send(page, 'Hello! What can you do for me?');
    const answer = page.getByTestId('message-assistant');
    await expect(answer.last().getByTestId('message-text').last()).not.toBeEmpty({ timeout: 30_000 });
    await expect(page.getByTestId('stop')).toBeVisible();
    const partial = (await answer.last().textContent()) ?? '';
    await page.reload();
    // The reload reads the answer from its start, then the rest as the Worker writes it: it ends whole, not stopped.
    await idle(page);
    await expect(answer).toHaveCount(1);
    await expect(answer.getByTestId('message-stopped')).toHaveCount(0);
    await expect(answer.last().getByTestId('message-usage')).toHaveText(/tokens$/);
    await expect(page.getByTestId('error-banner')).toHaveCount(0);
    expect(((await answer.last().getByTestId('message-text').allTextContents()).join('')).length).toBeGreaterThan(partial.length / 2);
    await shot(page, 'resumed-after-reload');
    // One POST (the turn ran once: the reload sent nothing again), one resume; one recording, ended.
    expect(requests.filter((r) => r === 'POST /api/chat')).toHaveLength(1);
    expect(requests.filter((r) => r === 'GET /api/chat/:id/stream').length).toBeGreaterThanOrEqual(1);
    const chatId = await chatIdOf(page);
    expect(chatId).toBeTruthy();
    expect(recordings(chatId as string)).toEqual([{ turn_id: expect.any(String), ended: 'done' }]);

    // A reload after the end asks the server nothing, and the answer stays as it was.
    const text = await answer.last().getByTestId('message-text').allTextContents();
    const before = requests.length;
    await page.reload();
    await expect(answer.last().getByTestId('message-text')).toHaveText(text);
    expect(requests.slice(before).filter((r) => r.includes('/stream'))).toEqual([]);
    // The chat goes on.
    await send(page, 'Where is order A-1002?');
    await expect(toolCard(page, 'query_order')).toHaveAttribute('data-state', 'done');
    await idle(page);
  });

  test('Stop stops it at the Worker too: after a reload it stays stopped, and nothing is resumed', async ({ page }) => {
    const requests: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.endsWith('/stream')) requests.push(request.method());
    });
    await openChat(page);
    await send(page, 'Hello! What can you do for me?');
    await expect(page.getByTestId('message-assistant').last().getByTestId('message-text').last()).not.toBeEmpty({ timeout: 30_000 });
    await page.getByTestId('stop').click();
    await idle(page);
    await expect.poll(() => requests).toEqual(['DELETE']);
    const cut = await page.getByTestId('message-assistant').last().getByTestId('message-text').allTextContents();
    await page.reload();
    await expect(page.getByTestId('message-assistant').last().getByTestId('message-stopped')).toBeVisible();
    await expect(page.getByTestId('message-assistant').last().getByTestId('message-text')).toHaveText(cut);
    expect(requests).toEqual(['DELETE']);
  });

  test('a reload while the date picker asks: it asks once after the reload, and answering it finishes the answer', async ({ page }) => {
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/chat') posts.push(request.postData() ?? '');
    });
    await openChat(page);
    await slowNextTurn(page, 150);
    // Two calls at once: the date picker asks in the browser while the delay analyst still works at the Worker.
    await send(page, '/pick_date {"question":"Which delivery day suits you?"}\n/delay_analyst {"task":"Review the delayed orders"}');
    await expect(page.getByTestId('date-picker')).toBeVisible();
    await expect(toolCard(page, 'delay_analyst')).not.toHaveAttribute('data-state', 'done');
    await page.reload();
    // The answer is resumed to its end; the question is asked once, with one card.
    await expect(toolCard(page, 'delay_analyst')).toHaveAttribute('data-state', 'done');
    await expect(page.getByTestId('date-picker')).toHaveCount(1);
    await expect(page.locator('[data-testid="tool-card"][data-tool-name="pick_date"]')).toHaveCount(1);
    await expect(page.getByTestId('message-assistant').getByTestId('message-stopped')).toHaveCount(0);
    await page.getByTestId('date-input').fill('2026-12-24');
    await page.getByTestId('date-submit').click();
    const card = toolCard(page, 'pick_date');
    await expect(card).toHaveAttribute('data-state', 'done');
    await expect(card.getByTestId('tool-output')).toContainText('2026-12-24');
    await idle(page);
    await expect(page.getByTestId('message-assistant').last()).toContainText('2026-12-24');
    await expect(page.getByTestId('date-picker')).toHaveCount(0);
    await expect(page.getByTestId('error-banner')).toHaveCount(0);
    // The turn was posted once (the reload resumed it), the answer to the question once.
    expect(posts).toHaveLength(2);
    expect(posts[1]).toContain('2026-12-24');
  });

  test('an approval decided before a reload while its turn still runs is kept after the reload: the call runs once', async ({ page }, testInfo) => {
    const date = `2027-03-${String(10 + testInfo.repeatEachIndex).padStart(2, '0')}`;
    const moves = () =>
      queryD1<{ n: number }>('offline', `SELECT COUNT(*) AS n FROM order_events WHERE order_id = 'A-1003' AND kind = 'delivery_date_changed' AND json_extract(details, '$.to') = '${date}'`)[0]?.n;
    const before = moves();
    let posts = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/chat') posts++;
    });
    await openChat(page);
    await slowNextTurn(page, 150);
    await send(page, `/update_delivery_date {"order_id":"A-1003","new_date":"${date}"}\n/delay_analyst {"task":"Review the delayed orders"}`);
    const card = toolCard(page, 'update_delivery_date');
    await expect(card).toHaveAttribute('data-state', 'awaiting-approval');
    // Approved while the delay analyst still works: the answer has not ended, so the approval is not sent yet.
    await card.getByTestId('approve').click();
    await expect(card.getByTestId('approve')).toHaveCount(0);
    await expect(toolCard(page, 'delay_analyst')).not.toHaveAttribute('data-state', 'done');
    await page.reload();
    // The resumed answer keeps the decision: no buttons again, and once the answer ends the approval goes out, once.
    await expect(card.getByTestId('approve')).toHaveCount(0);
    await expect(card).toHaveAttribute('data-state', 'done');
    await idle(page);
    await expect(page.getByTestId('error-banner')).toHaveCount(0);
    expect(deliveryDate('A-1003')).toBe(date);
    expect(moves()).toBe((before ?? 0) + 1);
    expect(posts).toBe(2);
    // Another reload changes nothing.
    await page.reload();
    await expect(card).toHaveAttribute('data-state', 'done');
    await expect(card.getByTestId('approve')).toHaveCount(0);
    expect(moves()).toBe((before ?? 0) + 1);
  });
});
