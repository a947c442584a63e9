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
