import { expect, test } from '@playwright/test';
import { OPENAI_URL } from '../playwright.config.ts';
import { idle, openChat, send, shot } from './support.ts';

test.describe('the token budget before the first model call (real @ai-sdk/openai provider, local fake server)', () => {
  test('a conversation grown past the budget is not sent to the model: the answer says so, and to start a new chat', async ({ page }) => {
    test.setTimeout(180_000);
    await openChat(page, `${OPENAI_URL}/`);
    // Messages of 20,000 characters (the composer's most), about 5,000 tokens each by the server's estimate: the
    // demo's budget of 50,000 is reached after about ten of them, each answered until then.
    const note = (n: number) => `Note ${n}: ${'lorem ipsum dolor sit amet '.repeat(800)}`.slice(0, 20_000);
    let sent = 0;
    for (let n = 1; n <= 14; n++) {
      await send(page, note(n));
      sent = n;
      await idle(page);
      const answer = page.getByTestId('message-assistant').last();
      if ((await answer.getByTestId('message-limit').count()) > 0) break;
      await expect(answer.getByTestId('message-text').first()).toBeVisible();
    }
    expect(sent).toBeGreaterThan(5);
    const refused = page.getByTestId('message-assistant').last();
    await expect(refused.getByTestId('message-limit')).toHaveText(/^Not sent to the model: .*Start a new chat/);
    await expect(refused.getByTestId('message-text')).toHaveCount(0);
    // Every earlier answer was the model's, with no limit.
    await expect(page.getByTestId('message-assistant').getByTestId('message-limit')).toHaveCount(1);
    await shot(page, 'budget-before-first-call');
  });
});
