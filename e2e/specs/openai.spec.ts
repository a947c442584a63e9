import { expect, test } from '@playwright/test';
import { OPENAI_URL } from '../playwright.config.ts';
import { expectUsage, idle, openChat, send, shot, toolCard } from './support.ts';

test.describe('the demo chat on the real @ai-sdk/openai provider (local fake OpenAI server)', () => {
  test('the model calls a server tool over the real wire format and answers from its result', async ({ page }) => {
    await openChat(page, `${OPENAI_URL}/`);
    await expect(page.getByTestId('model-label')).toHaveAttribute('data-offline', 'false');
    await expect(page.getByTestId('model-label')).toContainText('gpt-4o');
    await send(page, '/call query_order {"order_id":"A-1010"}');
    const card = toolCard(page, 'query_order');
    await expect(card).toHaveAttribute('data-state', 'done');
    await expect(card.getByTestId('tool-output')).toContainText('Radia Perlman');
    await idle(page);
    await expect(page.getByTestId('message-assistant').last()).toContainText('query_order returned');
    // The fake server's usage, read by the real provider, summed over both steps, survives a reload.
    const total = await expectUsage(page);
    await page.reload();
    await expect(page.getByTestId('message-assistant').last().getByTestId('message-usage')).toHaveText(`${total.toLocaleString('en-US')} tokens`);
    await shot(page, 'openai-provider');
  });

  test('a turn that reaches its token budget stops after that step, and the answer says why', async ({ page }) => {
    await openChat(page, `${OPENAI_URL}/`);
    // The fake server reports 60,000 input tokens for the reply with the call: over the demo's budget of 50,000.
    await send(page, '/call query_order {"order_id":"A-1010"}\n/tokens 60000');
    await expect(toolCard(page, 'query_order')).toHaveAttribute('data-state', 'done');
    await idle(page);
    const answer = page.getByTestId('message-assistant').last();
    await expect(answer.getByTestId('message-limit')).toHaveText(/^Stopped: .*most tokens/);
    // The model was not asked again: no summary of the result.
    await expect(answer).not.toContainText('query_order returned');
    await expect(answer.getByTestId('message-usage')).toHaveText(/^6\d,\d{3} tokens$/);
    await page.reload();
    await expect(page.getByTestId('message-assistant').last().getByTestId('message-limit')).toHaveText(/most tokens/);
  });

  test('a sub-agent reports the tokens it spent: its tool card shows them, and the answer counts them', async ({ page }) => {
    await openChat(page, `${OPENAI_URL}/`);
    await send(page, '/call delay_analyst {"task":"Review the delayed orders"}');
    const card = toolCard(page, 'delay_analyst');
    await expect(card).toHaveAttribute('data-state', 'done');
    const spent = card.getByTestId('tool-usage');
    await expect(spent).toHaveText(/^[1-9][\d,]* tokens$/);
    await expect(spent).toHaveAttribute('title', /^Tokens of this call: [\d,]+ in, [\d,]+ out$/);
    await idle(page);
    const inner = Number((await spent.textContent())?.replace(/[^\d]/g, ''));
    // The answer's tokens are the outer turn's steps plus the sub-agent's.
    expect(await expectUsage(page)).toBeGreaterThan(inner);
  });

  test("a sub-agent's calls show in its call's trace, nested under the call's own layers, with their outcomes", async ({ page }) => {
    await openChat(page, `${OPENAI_URL}/`);
    // The task is the sub-agent's only message: its two lines make the fake model call a tool and one that is not there.
    await send(page, '/call delay_analyst {"task":"/call list_delayed_orders {\\"days_threshold\\":\\"3\\"}\\n/call no_such_tool {}"}');
    const card = toolCard(page, 'delay_analyst');
    await expect(card).toHaveAttribute('data-state', 'done');
    const timeline = card.getByTestId('trace-timeline');
    const calls = timeline.getByTestId('trace-subcall');
    await expect(calls).toHaveCount(2);
    const listed = calls.and(page.locator('[data-tool="list_delayed_orders"]'));
    await expect(listed).toHaveAttribute('data-outcome', 'success');
    await expect(listed).toHaveAttribute('data-level', '1');
    await expect(listed).toContainText('↳ list_delayed_orders');
    await expect(listed.getByTestId('trace-subcall-outcome')).toHaveText('success');
    const unknown = calls.and(page.locator('[data-tool="no_such_tool"]'));
    await expect(unknown).toHaveAttribute('data-outcome', 'error');
    await expect(unknown.getByTestId('trace-subcall-outcome')).toHaveText('unknown-tool');
    // Under the agent call's own layers: after its execute row, indented past it.
    const rows = timeline.locator('li');
    const names = await rows.evaluateAll((items) => items.map((item) => item.getAttribute('data-testid') === 'trace-subcall' ? 'call' : item.getAttribute('data-kind')));
    expect(names.indexOf('execute')).toBeGreaterThanOrEqual(0);
    expect(names.indexOf('call')).toBeGreaterThan(names.indexOf('execute'));
    const indent = (locator: typeof listed) => locator.locator('.timeline-name').evaluate((el) => Number.parseFloat(getComputedStyle(el).paddingInlineStart));
    expect(await indent(listed)).toBeGreaterThan(await indent(timeline.locator('li[data-kind="execute"]')));
    // Folded, the toggle says what it holds: the call's own layers and its sub-agent's calls (it counted the layers alone).
    const toggle = card.getByTestId('trace-toggle');
    await toggle.click();
    await expect(toggle).toHaveText(/^Trace · \d+ spans · 2 sub-agent calls$/);
    await toggle.click();
    await idle(page);
    // The history keeps them: after a reload the card shows the same calls.
    await page.reload();
    await expect(toolCard(page, 'delay_analyst').getByTestId('trace-subcall')).toHaveCount(2);
    await shot(page, 'sub-agent-trace');
  });

  test('an approval round trip through the real provider', async ({ page }) => {
    await openChat(page, `${OPENAI_URL}/`);
    // The first request reports 60,000 input tokens; the one that continues the message after the approval, a few.
    await send(page, '/call send_email {"order_id":"A-1002","subject":"Your order","body":"It is on its way."}\n/tokens 60000');
    const card = toolCard(page, 'send_email');
    await expect(card).toHaveAttribute('data-state', 'awaiting-approval');
    await card.getByTestId('approve').click();
    await expect(card).toHaveAttribute('data-state', 'done');
    await idle(page);
    const answer = page.getByTestId('message-assistant').last();
    await expect(answer).toContainText('send_email returned');
    // The answer shows what the whole message cost: both requests, not only the last one.
    await expect(answer.getByTestId('message-usage')).toHaveText(/^6\d,\d{3} tokens$/);
    const total = await expectUsage(page);
    expect(total).toBeGreaterThan(60_000);
  });
});
