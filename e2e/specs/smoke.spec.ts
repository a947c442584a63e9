import { expect, test } from '@playwright/test';
import { OPENAI_URL } from '../playwright.config.ts';

test('the offline Worker serves the app and names its model', async ({ page, request }) => {
  const health = await request.get('/api/health');
  expect(await health.json()).toEqual({ ok: true, model: { provider: 'edgetool.offline', modelId: 'edgetool-offline', offline: true } });
  await page.goto('/');
  await expect(page.locator('body')).toContainText(/edgetool/i);
});

test('the second Worker uses the real OpenAI provider against the fake server', async ({ request }) => {
  const health = await request.get(`${OPENAI_URL}/api/health`);
  expect(await health.json()).toEqual({ ok: true, model: { provider: 'openai.chat', modelId: 'gpt-4o', offline: false } });
});

test('/api itself reaches the Worker (a JSON 404), not the app page the assets fall back to', async ({ request }) => {
  const api = await request.get('/api');
  expect(api.status()).toBe(404);
  expect(await api.json()).toEqual({ error: { code: 'not-found', message: 'No API route GET /api.' } });
  // Any other unknown path is the app's, for client-side routing.
  expect((await request.get('/orders/A-1001')).headers()['content-type']).toContain('text/html');
});
