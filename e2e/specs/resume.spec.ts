import { expect, test } from '@playwright/test';
import { idle, openChat, queryD1, send, shot, toolCard } from './support.ts';

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
});
