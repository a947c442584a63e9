import { expect, type Page, test } from '@playwright/test';
import { deliveryDate, failNextAnswerAfter, holdNextAnswer, idle, openChat, queryD1, send, shot, toolCard } from './support.ts';

/** The bodies of the chat requests the page posts from now on. */
function recordPosts(page: Page): { readonly bodies: string[] } {
  const bodies: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/chat')) bodies.push(request.postData() ?? '');
  });
  return { bodies };
}

/** The order's delivery date in D1, and how many times it was moved to `date` (a call that ran twice would show 2). */
function movesTo(order: string, date: string): { readonly date: string | undefined; readonly moves: number } {
  const [id, day] = [order.replace(/'/g, ''), date.replace(/'/g, '')];
  const [row] = queryD1<{ delivery_date: string; moves: number }>(
    'offline',
    `SELECT delivery_date, (SELECT COUNT(*) FROM order_events WHERE order_id = '${id}' AND kind = 'delivery_date_changed' ` +
      `AND json_extract(details, '$.to') = '${day}') AS moves FROM orders WHERE id = '${id}'`,
  );
  return { date: row?.delivery_date, moves: row?.moves ?? Number.NaN };
}

/** The messages a chat request posted (its conversation, which carries the decisions). */
const postedMessages = (body: string | undefined): unknown => (JSON.parse(body ?? '{}') as { messages?: unknown }).messages;

/**
 * Clicks the card's buttons in one task, as a double click or two buttons hit at once do: React cannot render in
 * between. Returns whether both buttons were disabled right after the first click.
 */
async function clickTogether(page: Page, toolName: string, buttons: readonly ('approve' | 'deny')[]): Promise<boolean> {
  return page.evaluate(
    ({ toolName, buttons }) => {
      const card = [...document.querySelectorAll(`[data-testid="tool-card"][data-tool-name="${toolName}"]`)].at(-1);
      const button = (name: string) => card?.querySelector<HTMLButtonElement>(`[data-testid="${name}"]`);
      let disabledAtOnce = false;
      buttons.forEach((name, index) => {
        button(name)?.click();
        if (index === 0) disabledAtOnce = button('approve')?.disabled === true && button('deny')?.disabled === true;
      });
      return disabledAtOnce;
    },
    { toolName, buttons },
  );
}

test.describe('approvals', () => {
  test('the user changes the date and gives a reason before approving: D1 gets the edited date, the card and the answer say so', async ({ page }) => {
    const posts = recordPosts(page);
    await openChat(page);
    await send(page, 'Change the delivery date of order A-1006 to 2027-01-05');
    const card = toolCard(page, 'update_delivery_date');
    await expect(card).toHaveAttribute('data-state', 'awaiting-approval');
    // The tool's own words (policy.approvalReason), worked out from the order in D1: the customer and the delay.
    await expect(card.getByTestId('approval-request-reason')).toHaveText(/^Order A-1006 of Margaret Hamilton moves from \d{4}-\d{2}-\d{2} to 2027-01-05: \d+ days late\.$/);
    // The server's ticket says which arguments may change: the date and the reason, not the order.
    const editor = card.getByTestId('approval-edits');
    await expect(editor).toBeVisible();
    await expect(card.getByTestId('edit-order_id')).toHaveCount(0);
    await expect(card.getByTestId('edit-new_date')).toHaveAttribute('type', 'date');
    await expect(card.getByTestId('edit-new_date')).toHaveValue('2027-01-05');
    await expect(card.getByTestId('approval-request-note')).toHaveCount(0);
    await card.getByTestId('edit-new_date').fill('2027-01-09');
    // The tool's words were said of the model's date: once the user changes it, the card says so.
    await expect(card.getByTestId('approval-request-note')).toHaveText('(said of the arguments as proposed, before your changes)');
    await card.getByTestId('edit-reason').fill('the customer is away that week');
    await shot(page, 'approval-with-edits');
    await card.getByTestId('approve').click();
    await expect(card).toHaveAttribute('data-state', 'done');
    await idle(page);
    expect(deliveryDate('A-1006')).toBe('2027-01-09');
    // The card keeps the model's arguments and shows what the user changed; the output is what ran.
    await expect(card.getByTestId('tool-input')).toContainText('2027-01-05');
    await expect(card.getByTestId('tool-edits')).toHaveText(
      'Edited by you before approving: new_date "2027-01-05" → "2027-01-09"; reason set to "the customer is away that week"',
    );
    await expect(card.getByTestId('tool-output')).toContainText('2027-01-09');
    await expect(page.getByTestId('message-assistant').last()).toContainText('With your edit (new_date changed from "2027-01-05" to "2027-01-09"');
    // The edit went with the approval, beside the call.
    const continued = JSON.parse(posts.bodies.at(-1) ?? '{}') as { messages: { parts: { type: string; data?: unknown }[] }[] };
    const edits = continued.messages.at(-1)?.parts.filter((part) => part.type === 'data-edgetool-edit');
    expect(edits?.map((part) => part.data)).toEqual([expect.objectContaining({ input: expect.objectContaining({ order_id: 'A-1006', new_date: '2027-01-09' }) })]);
    await shot(page, 'approval-with-edits-done');

    // The sealed history, edit included, is accepted for the next question.
    await send(page, 'Where is order A-1006?');
    await expect(toolCard(page, 'query_order')).toHaveAttribute('data-state', 'done');
    await expect(page.getByTestId('error-banner')).toHaveCount(0);
  });

  test('while an approval waits, the composer holds the next message (Send and Enter) and says why', async ({ page }) => {
    await openChat(page);
    await send(page, 'Change the delivery date of order A-1011 to 2027-01-12');
    const card = toolCard(page, 'update_delivery_date');
    await expect(card).toHaveAttribute('data-state', 'awaiting-approval');
    await idle(page);
    const posts = recordPosts(page);

    const input = page.getByTestId('chat-input');
    await input.fill('Where is order A-1001?');
    const hint = page.getByTestId('composer-blocked');
    await expect(hint).toBeVisible();
    await expect(hint).toContainText('Approve or deny the pending action first');
    await expect(input).toHaveAttribute('aria-describedby', (await hint.getAttribute('id')) ?? 'missing id');
    await expect(page.getByTestId('send')).toBeDisabled();
    await input.press('Enter');
    await expect(hint).toHaveAttribute('data-nudged', 'true');
    await expect(page.getByTestId('message-user')).toHaveCount(1);
    await expect(input).toHaveValue('Where is order A-1001?');
    await expect(card).toHaveAttribute('data-state', 'awaiting-approval');
    await shot(page, 'composer-held-by-approval');

    // "Show" takes the user (and the focus) to the waiting call.
    await page.getByTestId('show-pending').click();
    await expect(card.getByTestId('approve')).toBeFocused();
    expect(posts.bodies).toEqual([]);

    await card.getByTestId('deny').click();
    await expect(card).toHaveAttribute('data-state', 'denied');
    await idle(page);
    await expect(hint).toHaveCount(0);
    await expect(input).not.toHaveAttribute('aria-describedby');
    await input.press('Enter');
    await expect(page.getByTestId('message-user')).toHaveCount(2);
    await expect(toolCard(page, 'query_order')).toHaveAttribute('data-state', 'done');
    expect(deliveryDate('A-1011')).toBe('2026-11-30');
  });

  test('a waiting approval is announced once: by the chat, not again by the composer\'s notice', async ({ page }) => {
    await openChat(page);
    await send(page, 'Change the delivery date of order A-1003 to 2027-01-20');
    await expect(toolCard(page, 'update_delivery_date')).toHaveAttribute('data-state', 'awaiting-approval');
    await idle(page);
    await expect(page.getByTestId('chat-announcer')).toContainText('1 tool call waits for your approval.');
    await expect(page.getByRole('status').filter({ hasText: /waits? for your approval/ })).toHaveCount(1);
    // The notice still shows, and describes the message box.
    const hint = page.getByTestId('composer-blocked');
    await expect(hint).toBeVisible();
    await expect(page.getByTestId('chat-input')).toHaveAttribute('aria-describedby', (await hint.getAttribute('id')) ?? 'missing id');
  });

  test('Enter in an approval field goes to its button and decides nothing; a value that cannot be sent is named at once', async ({ page }) => {
    await openChat(page);
    await send(page, 'Change the delivery date of order A-1003 to 2027-01-21');
    const card = toolCard(page, 'update_delivery_date');
    await expect(card).toHaveAttribute('data-state', 'awaiting-approval');
    await idle(page);
    const posts = recordPosts(page);
    // Enter in an edit field takes the user to Approve: a stray Enter does not run a write.
    await card.getByTestId('edit-reason').fill('the customer asked');
    await card.getByTestId('edit-reason').press('Enter');
    await expect(card.getByTestId('approve')).toBeFocused();
    // A value that cannot be sent is named at once, and the focus stays on it.
    await card.getByTestId('edit-new_date').fill('');
    await card.getByTestId('edit-new_date').press('Enter');
    await expect(card.getByTestId('edit-error')).toHaveText('new_date: enter a date.');
    await expect(card.getByTestId('edit-new_date')).toBeFocused();
    // The field is marked invalid and described by the problem, read whenever it has focus (not only once, as the alert).
    const errorId = (await card.getByTestId('edit-error').getAttribute('id')) ?? 'missing id';
    await expect(card.getByTestId('edit-new_date')).toHaveAttribute('aria-invalid', 'true');
    await expect(card.getByTestId('edit-new_date')).toHaveAttribute('aria-describedby', errorId);
    await expect(card.getByTestId('edit-reason')).not.toHaveAttribute('aria-invalid');
    // So is one the tool's input schema refuses (the server would refuse the edit, and the call would end unperformed),
    // by Enter and by Approve: the approval does not go.
    await card.getByTestId('edit-new_date').fill('2027-01-21');
    // Fixed: the mark goes with the problem.
    await expect(card.getByTestId('edit-error')).toHaveCount(0);
    await expect(card.getByTestId('edit-new_date')).not.toHaveAttribute('aria-invalid');
    await expect(card.getByTestId('edit-new_date')).not.toHaveAttribute('aria-describedby');
    await card.getByTestId('edit-reason').fill('x'.repeat(501));
    await card.getByTestId('edit-reason').press('Enter');
    await expect(card.getByTestId('edit-error')).toHaveText('reason: String is too long (501 > 500).');
    await expect(card.getByTestId('edit-reason')).toBeFocused();
    await expect(card.getByTestId('edit-reason')).toHaveAttribute('aria-invalid', 'true');
    await card.getByTestId('edit-reason').fill('y'.repeat(501));
    await card.getByTestId('approve').click();
    await expect(card.getByTestId('edit-error')).toHaveText('reason: String is too long (501 > 500).');
    // Approve with a problem takes the focus to the field that has it.
    await expect(card.getByTestId('edit-reason')).toBeFocused();
    await expect(card.getByTestId('approve')).toBeEnabled();
    await expect(card).toHaveAttribute('data-state', 'awaiting-approval');
    // Enter in the deny reason takes the user to Deny; Enter there decides.
    await card.getByTestId('deny-reason').fill('not this week');
    await card.getByTestId('deny-reason').press('Enter');
    await expect(card.getByTestId('deny')).toBeFocused();
    await expect(card).toHaveAttribute('data-state', 'awaiting-approval');
    expect(posts.bodies).toEqual([]);
    await page.keyboard.press('Enter');
    await expect(card).toHaveAttribute('data-state', 'denied');
    await idle(page);
    await expect(card).toContainText('Denied: not this week');
    expect(deliveryDate('A-1003')).not.toBe('2027-01-21');
  });

  test('a tool card is an article named by its tool and state', async ({ page }) => {
    await openChat(page);
    await send(page, 'Where is order A-1002?');
    await expect(page.getByRole('article', { name: 'query_order done' })).toHaveAttribute('data-tool-name', 'query_order');
  });

  test('Approve and Deny hit together: the first decision wins, both buttons go at once, one request runs the call once', async ({ page }) => {
    await openChat(page);
    await send(page, 'Change the delivery date of order A-1007 to 2027-01-15');
    const card = toolCard(page, 'update_delivery_date');
    await expect(card).toHaveAttribute('data-state', 'awaiting-approval');
    await idle(page);
    const posts = recordPosts(page);

    expect(await clickTogether(page, 'update_delivery_date', ['approve', 'deny', 'approve'])).toBe(true);
    await expect(card).toHaveAttribute('data-state', 'done');
    await idle(page);
    expect(deliveryDate('A-1007')).toBe('2027-01-15');
    expect(posts.bodies).toHaveLength(1);
    expect(posts.bodies[0]).toContain('"approved":true');
    expect(posts.bodies[0]).not.toContain('"approved":false');
  });

  test('a double click on Deny sends one denial', async ({ page }) => {
    await openChat(page);
    await send(page, 'Change the delivery date of order A-1011 to 2027-01-16');
    const card = toolCard(page, 'update_delivery_date');
    await expect(card).toHaveAttribute('data-state', 'awaiting-approval');
    await idle(page);
    const posts = recordPosts(page);

    await card.getByTestId('deny-reason').fill('not now');
    await card.getByTestId('deny').dblclick();
    await expect(card).toHaveAttribute('data-state', 'denied');
    await idle(page);
    expect(posts.bodies).toHaveLength(1);
    expect(posts.bodies[0]).toContain('"reason":"not now"');
    expect(deliveryDate('A-1011')).toBe('2026-11-30');
  });

  test('a browser tool that asks first runs once when Approve and Deny are hit together', async ({ page }) => {
    await openChat(page);
    await send(page, '/cart_add {"name":"tea","quantity":3}');
    await expect(toolCard(page, 'cart_add')).toHaveAttribute('data-state', 'done');
    await idle(page);
    await send(page, '/cart_clear {}');
    const card = toolCard(page, 'cart_clear');
    await expect(card).toHaveAttribute('data-state', 'awaiting-approval');
    await expect(card.getByTestId('approval')).toHaveAttribute('data-source', 'browser');
    const posts = recordPosts(page);

    expect(await clickTogether(page, 'cart_clear', ['approve', 'deny'])).toBe(true);
    await expect(card).toHaveAttribute('data-state', 'done');
    await idle(page);
    await expect(card.getByTestId('tool-output')).toContainText('"removed": 3');
    expect(posts.bodies).toHaveLength(1);
    await expect(page.getByTestId('cart-item')).toHaveCount(0);
  });
});

test.describe('a decision that got no answer', () => {
  /** Asks to move `order` to `date` and waits for the approval card; returns it. */
  async function askToMove(page: Page, order: string, date: string) {
    await openChat(page);
    await send(page, `Change the delivery date of order ${order} to ${date}`);
    const card = toolCard(page, 'update_delivery_date');
    await expect(card).toHaveAttribute('data-state', 'awaiting-approval');
    await idle(page);
    return card;
  }

  test('an approval whose request never reached the server: the banner and the card offer Retry, which sends the same decision once', async ({ page }) => {
    const card = await askToMove(page, 'A-1010', '2027-02-03');
    const posts = recordPosts(page);
    await page.route('**/api/chat', (route) => route.abort('connectionrefused'), { times: 1 });
    await card.getByTestId('approve').click();

    const banner = page.getByTestId('error-banner');
    await expect(banner).toHaveAttribute('data-kind', 'unreachable');
    await expect(page.getByTestId('server-status')).toHaveAttribute('data-status', 'online');
    await expect(banner).toContainText('The request got no answer');
    // Not "send a new message": that would take the approval back.
    await expect(banner).toContainText('your answer to the call is kept: Retry sends it again');
    await expect(banner).not.toContainText('Send a new message');
    await expect(card).toHaveAttribute('data-state', 'approved');
    const unsent = /^Your approval got no answer from the server\. Retry sends it again; the call does not run twice\.\s*Retry$/;
    await expect(card.getByTestId('tool-unsent')).toHaveText(unsent);
    await shot(page, 'approval-unsent');
    expect(movesTo('A-1010', '2027-02-03').moves).toBe(0);

    await banner.getByTestId('error-retry').click();
    await expect(card).toHaveAttribute('data-state', 'done');
    await idle(page);
    await expect(banner).toHaveCount(0);
    await expect(card.getByTestId('tool-unsent')).toHaveCount(0);
    expect(movesTo('A-1010', '2027-02-03')).toEqual({ date: '2027-02-03', moves: 1 });
    // The same decision went again, not a new question.
    expect(posts.bodies).toHaveLength(2);
    expect(postedMessages(posts.bodies[1])).toEqual(postedMessages(posts.bodies[0]));
    await expect(page.getByTestId('message-user')).toHaveCount(1);
  });

  test("the model's error before any of the approval's answer came: Retry sends it again, the call that ran is answered from its record", async ({ page }) => {
    const card = await askToMove(page, 'A-1007', '2027-03-04');
    const posts = recordPosts(page);
    // The Worker claims the ticket and runs the write; the browser gets the answer's start, then the error.
    await failNextAnswerAfter(page, '"type":"start"');
    await card.getByTestId('approve').click();
    const banner = page.getByTestId('error-banner');
    await expect(banner).toHaveAttribute('data-kind', 'stream');
    await expect(banner).toContainText('The model provider failed.');
    // It had no Retry and no advice: sending the same ticket again was thought unsafe.
    await expect(banner).toContainText('Your answer to the call is kept: Retry sends it again.');
    await expect(card).toHaveAttribute('data-state', 'approved');
    expect(movesTo('A-1007', '2027-03-04').moves).toBe(1);

    await banner.getByTestId('error-retry').click();
    await expect(card).toHaveAttribute('data-state', 'done');
    await idle(page);
    await expect(banner).toHaveCount(0);
    // The same continuation again, answered from the result the Worker recorded: the order moved once.
    expect(posts.bodies).toHaveLength(2);
    expect(postedMessages(posts.bodies[1])).toEqual(postedMessages(posts.bodies[0]));
    expect(movesTo('A-1007', '2027-03-04')).toEqual({ date: '2027-03-04', moves: 1 });
    await expect(page.getByTestId('message-assistant').last().getByTestId('message-text')).not.toHaveCount(0);
  });

  test("the model's error right after the approved call's result: Retry asks the model again, the thinking indicator shows, nothing runs again", async ({
    page,
  }) => {
    const card = await askToMove(page, 'A-1007', '2027-03-05');
    const posts = recordPosts(page);
    await failNextAnswerAfter(page, '"tool-output-available"');
    await card.getByTestId('approve').click();
    const banner = page.getByTestId('error-banner');
    await expect(banner).toHaveAttribute('data-kind', 'stream');
    await expect(card).toHaveAttribute('data-state', 'done');
    // It said the answer so far stays and to send a new message, with no Retry.
    await expect(banner).toContainText("The calls' results came, the model's answer to them did not: Retry asks for it again.");
    const answer = page.getByTestId('message-assistant').last();
    await expect(answer.getByTestId('message-stopped')).toBeVisible();
    expect(movesTo('A-1007', '2027-03-05').moves).toBe(1);

    // The retry is held until the answer's row shows the model thinking after the card (it stood without it).
    const release = await holdNextAnswer(page);
    await banner.getByTestId('error-retry').click();
    await expect(answer.getByTestId('thinking')).toBeVisible();
    await expect(answer.getByTestId('thinking')).toMatchAriaSnapshot('- text: The model is thinking…');
    await expect(answer.getByTestId('message-stopped')).toHaveCount(0);
    release();
    await idle(page);
    await expect(banner).toHaveCount(0);
    await expect(answer.getByTestId('thinking')).toHaveCount(0);
    await expect(answer.getByTestId('message-text')).not.toHaveCount(0);
    await expect(page.getByTestId('message-stopped')).toHaveCount(0);
    // It went on from the sealed result: nothing claimed or run again.
    expect(posts.bodies).toHaveLength(2);
    expect(movesTo('A-1007', '2027-03-05')).toEqual({ date: '2027-03-05', moves: 1 });
  });

  test("the model's error right after the approved call's result, then a reload: the answer still offers Retry, which goes on once", async ({ page }) => {
    const card = await askToMove(page, 'A-1010', '2027-03-06');
    const posts = recordPosts(page);
    await failNextAnswerAfter(page, '"tool-output-available"');
    await card.getByTestId('approve').click();
    const banner = page.getByTestId('error-banner');
    await expect(banner).toHaveAttribute('data-kind', 'stream');
    await expect(card).toHaveAttribute('data-state', 'done');
    const answer = page.getByTestId('message-assistant').last();
    const retry = answer.getByTestId('answer-retry');
    // The answer offers it beside the banner, and keeps it once the banner is dismissed.
    await expect(retry).toBeVisible();
    await page.getByTestId('error-dismiss').click();
    await expect(retry).toBeVisible();

    // After a reload it offered nothing: the saved answer could not be told from one the step limit ended at its results.
    await page.reload();
    await expect(card).toHaveAttribute('data-state', 'done');
    await expect(banner).toHaveCount(0);
    await expect(answer.getByTestId('message-stopped')).toBeVisible();
    await expect(retry).toContainText("An error stopped the answer after its calls' results came, before the model's words on them.");
    expect(movesTo('A-1010', '2027-03-06').moves).toBe(1);
    await retry.getByTestId('answer-retry-button').click();
    await idle(page);
    await expect(answer.getByTestId('message-text')).not.toHaveCount(0);
    await expect(retry).toHaveCount(0);
    await expect(page.getByTestId('message-stopped')).toHaveCount(0);
    // It went on from the sealed result: one request, nothing run again.
    expect(posts.bodies).toHaveLength(2);
    expect(movesTo('A-1010', '2027-03-06')).toEqual({ date: '2027-03-06', moves: 1 });

    // Answered now: another reload offers nothing.
    await page.reload();
    await expect(answer.getByTestId('message-text')).not.toHaveCount(0);
    await expect(card).toHaveAttribute('data-state', 'done');
    await expect(retry).toHaveCount(0);
  });

  test('while the server runs an approved write, its card says it runs and the thinking indicator stays away', async ({ page }) => {
    const card = await askToMove(page, 'A-1012', '2027-03-07');
    // The approval's continuation is held: the page shows what it shows while the Worker runs the write.
    const release = await holdNextAnswer(page);
    await card.getByTestId('approve').click();
    await expect(card.getByTestId('tool-state')).toHaveText('running');
    await expect(page.getByRole('article', { name: 'update_delivery_date running' })).toBeVisible();
    // It showed "The model is thinking…" under the card, though the model is asked only once the write's result came.
    await expect(page.getByTestId('thinking')).toHaveCount(0);
    await expect(page.getByText('The model is thinking…')).toHaveCount(0);
    release();
    await expect(card).toHaveAttribute('data-state', 'done');
    await idle(page);
    await expect(card.getByTestId('tool-state')).toHaveText('done');
    await expect(page.getByTestId('message-assistant').last().getByTestId('message-text')).not.toHaveCount(0);
    expect(movesTo('A-1012', '2027-03-07')).toEqual({ date: '2027-03-07', moves: 1 });
  });

  test('Retry while an earlier call of the answer still waits sends nothing: a notice says which call waits, and Show it goes there', async ({ page }) => {
    // An answer as a server that went on past a call still waiting would leave it (the demo's Worker never does): its
    // first step's approval waits, and its last step's approval was given but never reached the server.
    const move = (order_id: string, new_date: string) => ({ order_id, new_date });
    const messages = [
      { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Move A-1011 and A-1012' }] },
      {
        id: 'a1',
        role: 'assistant',
        metadata: { mode: 'internal' },
        parts: [
          { type: 'step-start' },
          { type: 'tool-update_delivery_date', toolCallId: 'w1', state: 'approval-requested', input: move('A-1011', '2027-02-05'), approval: { id: 'ap1' } },
          { type: 'step-start' },
          {
            type: 'tool-update_delivery_date',
            toolCallId: 'w2',
            state: 'approval-responded',
            input: move('A-1012', '2027-02-06'),
            approval: { id: 'ap2', approved: true },
          },
        ],
      },
    ];
    // Kept as version 1 did (one conversation for all tabs): the tab that loads first takes it.
    await page.addInitScript(
      ({ key, stored }) => {
        if (localStorage.getItem('e2e.once') !== null) return;
        localStorage.setItem(key, stored);
        localStorage.setItem('e2e.once', '1');
      },
      { key: 'edgetool.chat', stored: JSON.stringify({ v: 1, id: 'retry-refused-chat', mode: 'internal', messages }) },
    );
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await openChat(page);
    const posts = recordPosts(page);
    const card = (id: string) => page.locator(`[data-testid="tool-card"][data-tool-call-id="${id}"]`);
    await expect(card('w1')).toHaveAttribute('data-state', 'awaiting-approval');
    await card('w2').getByTestId('send-again').click();

    const notice = page.getByTestId('retry-refused');
    await expect(notice).toContainText(
      'Nothing was sent: update_delivery_date still waits above, for your approval. The answer goes out by itself once it is answered.',
    );
    await notice.getByTestId('retry-refused-show').click();
    await expect(card('w1').getByTestId('approve')).toBeFocused();
    await notice.getByTestId('retry-refused-dismiss').click();
    await expect(notice).toHaveCount(0);
    // Nothing went out, and the refusal is handled, not an unhandled rejection.
    expect(posts.bodies).toEqual([]);
    expect(errors).toEqual([]);
    expect([movesTo('A-1011', '2027-02-05').moves, movesTo('A-1012', '2027-02-06').moves]).toEqual([0, 0]);
  });

  test('a reload after the approval failed to go keeps the decision: the card still offers Retry, and the call runs once', async ({ page }) => {
    const card = await askToMove(page, 'A-1007', '2027-02-04');
    await page.route('**/api/chat', (route) => route.abort('connectionrefused'), { times: 1 });
    await card.getByTestId('approve').click();
    await expect(page.getByTestId('error-banner')).toHaveAttribute('data-kind', 'unreachable');
    // Dismissing the banner leaves the decision to send.
    await page.getByTestId('error-dismiss').click();
    await expect(card.getByTestId('send-again')).toBeVisible();

    await page.reload();
    await expect(card).toHaveAttribute('data-state', 'approved');
    await expect(card.getByTestId('tool-unsent')).toContainText('Your approval got no answer from the server.');
    await expect(page.getByTestId('error-banner')).toHaveCount(0);
    expect(movesTo('A-1007', '2027-02-04').moves).toBe(0);
    await card.getByTestId('send-again').click();
    await expect(card).toHaveAttribute('data-state', 'done');
    await idle(page);
    await expect(card.getByTestId('tool-unsent')).toHaveCount(0);
    expect(movesTo('A-1007', '2027-02-04')).toEqual({ date: '2027-02-04', moves: 1 });

    // Answered now: another reload offers nothing to send.
    await page.reload();
    await expect(card).toHaveAttribute('data-state', 'done');
    await expect(card.getByTestId('send-again')).toHaveCount(0);
  });

  test('an approval another copy of the conversation answered first: refused (403), and after a reload its card says why and offers Ask again, not Retry', async ({
    page,
  }) => {
    const first = await askToMove(page, 'A-1010', '2027-04-02');
    const card = page.locator(`[data-testid="tool-card"][data-tool-call-id="${await first.getAttribute('data-tool-call-id')}"]`);
    // Another tab denies the call first (here: the page's own request, its approval turned into a denial, sent before
    // it): the ticket keeps that denial, and the page's approval is refused as 'conflict'. No route answers for the Worker.
    await page.route(
      '**/api/chat',
      async (route) => {
        const body = route.request().postDataJSON() as { messages: { parts: { state?: string; approval?: { approved?: boolean } }[] }[] };
        for (const part of body.messages.at(-1)?.parts ?? []) if (part.state === 'approval-responded' && part.approval) part.approval.approved = false;
        await (await route.fetch({ postData: JSON.stringify(body) })).text();
        await route.continue();
      },
      { times: 1 },
    );
    await card.getByTestId('approve').click();
    const banner = page.getByTestId('error-banner');
    await expect(banner).toHaveAttribute('data-status', '403');
    await expect(banner).toHaveAttribute('data-code', 'ticket-invalid');
    await expect(card.getByTestId('tool-refused')).toHaveAttribute('data-reason', 'conflict');
    await expect(card.getByTestId('send-again')).toHaveCount(0);
    // Its pill says what became of the approval, not what the user chose.
    await expect(card.getByTestId('tool-state')).toHaveText('refused');

    // After a reload the card offered Retry, which met the same 403.
    await page.reload();
    await expect(card).toHaveAttribute('data-state', 'approved');
    await expect(banner).toHaveCount(0);
    await expect(card.getByTestId('send-again')).toHaveCount(0);
    const note = card.getByTestId('tool-refused');
    await expect(note).toContainText('Your approval was refused: the call had already been answered otherwise');
    await expect(note).toContainText('Sending it again would be refused the same way.');
    await expect(card.getByTestId('tool-state')).toHaveText('refused');
    await expect(page.getByTestId('composer-blocked')).toHaveCount(0);
    await shot(page, 'approval-refused');
    expect(movesTo('A-1010', '2027-04-02').moves).toBe(0);

    await note.getByTestId('ask-again').click();
    await expect(page.getByTestId('message-user').last()).toContainText('The server refused my answer to the update_delivery_date call. Please ask me again.');
    const fresh = toolCard(page, 'update_delivery_date');
    await expect(fresh).toHaveAttribute('data-state', 'awaiting-approval');
    await expect(fresh.getByTestId('tool-input')).toContainText('2027-04-02');
    await expect(note).toHaveCount(0);
    await fresh.getByTestId('deny').click();
    await idle(page);
    await expect(banner).toHaveCount(0);
    expect(movesTo('A-1010', '2027-04-02').moves).toBe(0);
  });

  test('an approval that got no answer holds the next message once: the approved call is not dropped unwarned, Retry sends it', async ({ page }) => {
    const card = await askToMove(page, 'A-1006', '2027-03-09');
    await page.route('**/api/chat', (route) => route.abort('connectionrefused'), { times: 1 });
    await card.getByTestId('approve').click();
    await expect(page.getByTestId('error-banner')).toHaveAttribute('data-kind', 'unreachable');
    await page.getByTestId('error-dismiss').click();
    const posts = recordPosts(page);

    // A new message withdraws the approval (the server reads answers only in the last answer): the write the user
    // approved never runs, and its card says "stopped". The first try is held and says so; Retry is one step away.
    const input = page.getByTestId('chat-input');
    await input.fill('Where is order A-1001?');
    const hint = page.getByTestId('composer-blocked');
    await expect(hint).toContainText('Your approval has not reached the server yet, and a new message withdraws it.');
    await input.press('Enter');
    await expect(hint).toHaveAttribute('data-nudged', 'true');
    await expect(page.getByTestId('message-user')).toHaveCount(1);
    await expect(card).toHaveAttribute('data-state', 'approved');
    await page.getByTestId('show-pending').click();
    await expect(card.getByTestId('send-again')).toBeFocused();
    expect(posts.bodies).toEqual([]);

    await page.keyboard.press('Enter');
    await expect(card).toHaveAttribute('data-state', 'done');
    await idle(page);
    await expect(hint).toHaveCount(0);
    expect(movesTo('A-1006', '2027-03-09')).toEqual({ date: '2027-03-09', moves: 1 });
    await input.press('Enter');
    await expect(page.getByTestId('message-user')).toHaveCount(2);
    await expect(toolCard(page, 'query_order')).toHaveAttribute('data-state', 'done');
    await expect(card).toHaveAttribute('data-state', 'done');
  });

  test('a browser tool that ran, its continuation refused on the way: a new message keeps its result, and the server takes it', async ({ page }) => {
    await openChat(page);
    await send(page, '/cart_add {"name":"tea","quantity":3}');
    await expect(toolCard(page, 'cart_add')).toHaveAttribute('data-state', 'done');
    await idle(page);
    await send(page, '/cart_clear {}');
    const card = toolCard(page, 'cart_clear');
    await expect(card).toHaveAttribute('data-state', 'awaiting-approval');
    await expect(card.getByTestId('approval-text')).toHaveText('Your browser asks for your approval before it runs this tool (destructive).');
    const posts = recordPosts(page);
    await page.route('**/api/chat', (route) => route.abort('connectionrefused'), { times: 1 });
    await card.getByTestId('approve').click();
    await expect(page.getByTestId('error-banner')).toHaveAttribute('data-kind', 'unreachable');
    await expect(page.getByTestId('cart-item')).toHaveCount(0);

    // The user goes on instead of Retry. The cart was cleared: the card keeps its result, and the request carries it.
    await send(page, 'Where is order A-1002?');
    await idle(page);
    await expect(page.getByTestId('error-banner')).toHaveCount(0);
    await expect(toolCard(page, 'query_order')).toHaveAttribute('data-state', 'done');
    await expect(card).toHaveAttribute('data-state', 'done');
    await expect(card.getByTestId('tool-output')).toContainText('"removed": 3');
    expect(posts.bodies).toHaveLength(2);
    const parts = (postedMessages(posts.bodies[1]) as { parts: { type: string; state?: string; output?: unknown }[] }[]).flatMap((m) => m.parts);
    expect(parts.find((p) => p.type === 'tool-cart_clear')).toMatchObject({ state: 'output-available', output: { removed: 3 } });
    // A reload brings it back as it was, and the conversation goes on (the server sealed it in its answer).
    await page.reload();
    await expect(card).toHaveAttribute('data-state', 'done');
    await send(page, 'Where is order A-1003?');
    await idle(page);
    await expect(page.getByTestId('error-banner')).toHaveCount(0);
  });

  for (const { status, ran, order, date } of [
    { status: 504, ran: true, order: 'A-1002', date: '2027-02-05' },
    { status: 502, ran: false, order: 'A-1012', date: '2027-02-06' },
  ]) {
    const when = ran ? 'after the call ran' : 'before the call ran';
    test(`a gateway's ${status} to the approval ${when}: Retry sends it again, and the user sees one outcome of one write`, async ({ page }) => {
      const card = await askToMove(page, order, date);
      await page.route(
        '**/api/chat',
        async (route) => {
          // A proxy in front of the Worker gives up: after the Worker ran the call (its answer never comes back), or before.
          if (ran) await (await route.fetch()).body();
          await route.fulfill({ status, contentType: 'text/html', body: `<html><body><h1>${status} Gateway error</h1></body></html>` });
        },
        { times: 1 },
      );
      await card.getByTestId('approve').click();
      const banner = page.getByTestId('error-banner');
      await expect(banner).toHaveAttribute('data-status', String(status));
      // The gateway's page is named, not shown.
      await expect(banner).toContainText(`HTTP ${status} (${status === 502 ? 'Bad Gateway' : 'Gateway Timeout'}): the server or a proxy in front of it answered with an HTML page`);
      await expect(banner).not.toContainText('Gateway error');
      await expect(banner).toContainText('your answer to the call is kept: Retry sends it again');
      await expect(card.getByTestId('send-again')).toBeVisible();
      expect(movesTo(order, date).moves).toBe(ran ? 1 : 0);

      await banner.getByTestId('error-retry').click();
      await expect(card).toHaveAttribute('data-state', 'done');
      await idle(page);
      await expect(banner).toHaveCount(0);
      // One outcome: the result of the one write (recorded by the Worker when it ran before the gateway's error).
      await expect(card.getByTestId('tool-output')).toContainText(`"delivery_date": "${date}"`);
      await expect(page.getByTestId('tool-card')).toHaveCount(1);
      expect(movesTo(order, date)).toEqual({ date, moves: 1 });
    });
  }
});

test.describe('approvals on a phone (390 × 844)', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the held composer fits the screen, and "Show it" brings the waiting call into view', async ({ page }) => {
    await openChat(page);
    await send(page, 'Change the delivery date of order A-1011 to 2027-01-13');
    const card = toolCard(page, 'update_delivery_date');
    await expect(card).toHaveAttribute('data-state', 'awaiting-approval');
    await idle(page);
    await page.getByTestId('messages').evaluate((list) => {
      list.scrollTop = 0;
    });
    await expect(page.getByTestId('composer-blocked')).toBeVisible();
    await expect(page.getByTestId('send')).toBeDisabled();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.getByTestId('show-pending').tap();
    await expect(card.getByTestId('approve')).toBeFocused();
    await expect(card.getByTestId('approve')).toBeInViewport();
    await shot(page, 'phone-composer-held');
    await card.getByTestId('deny').tap();
    await expect(card).toHaveAttribute('data-state', 'denied');
    await expect(page.getByTestId('composer-blocked')).toHaveCount(0);
  });
});
