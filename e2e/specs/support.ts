import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, type Locator, type Page } from '@playwright/test';

const worker = fileURLToPath(new URL('../../apps/worker/', import.meta.url));
const output = fileURLToPath(new URL('../output/', import.meta.url));

/**
 * Runs one SQL query against the local D1 that a test Worker uses (through wrangler: no test-only API). The Worker
 * shares the SQLite file: a query that meets its write lock (`SQLITE_BUSY`, "database is locked": 1 in ~100 loaded
 * runs) is asked again, up to 5 times, 200 ms apart; any other failure throws at once.
 */
export function queryD1<T>(state: 'offline' | 'openai', sql: string): T[] {
  for (let attempt = 1; ; attempt++) {
    try {
      const out = execFileSync('wrangler', ['d1', 'execute', 'DB', '--local', '--persist-to', `${output}state-${state}/`, '--json', '--command', sql], {
        cwd: worker,
        env: { ...process.env, CI: '1', WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      return (JSON.parse(out) as { results: T[] }[])[0]?.results ?? [];
    } catch (error) {
      const said = `${(error as { stderr?: unknown }).stderr ?? ''}${(error as { stdout?: unknown }).stdout ?? ''}${String(error)}`;
      if (attempt >= 5 || !/SQLITE_BUSY|database is locked/.test(said)) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
}

/** The delivery date of an order in the offline Worker's D1. */
export const deliveryDate = (id: string): string | undefined =>
  queryD1<{ delivery_date: string }>('offline', `SELECT delivery_date FROM orders WHERE id = '${id.replace(/'/g, '')}'`)[0]?.delivery_date;

/** How many orders are open (not delivered) in the offline Worker's D1. */
export const openOrderCount = (): number =>
  queryD1<{ n: number }>('offline', "SELECT COUNT(*) AS n FROM orders WHERE status <> 'delivered'")[0]?.n ?? Number.NaN;

/** Types a message and sends it. */
export async function send(page: Page, text: string): Promise<void> {
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('send').click();
}

/** The (last) card of a tool call. */
export const toolCard = (page: Page, name: string): Locator => page.locator(`[data-testid="tool-card"][data-tool-name="${name}"]`).last();

/** Waits until the chat is idle again (no stop button). */
export async function idle(page: Page): Promise<void> {
  await expect(page.getByTestId('stop')).toHaveCount(0, { timeout: 30_000 });
}

/** A screenshot of the main states, kept under e2e/output/screenshots. */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(`${output}screenshots`, { recursive: true });
  await page.screenshot({ path: `${output}screenshots/${name}.png`, fullPage: true });
}

/** Opens a fresh chat on the page's Worker. */
export async function openChat(page: Page, url = '/'): Promise<void> {
  await page.goto(url);
  await expect(page.getByTestId('server-status')).toHaveAttribute('data-status', /ok|online|up|ready/, { timeout: 15_000 });
}

/**
 * The last answer shows the tokens its request used (from the `finish` chunk's metadata): a total that is the sum of
 * the input and output counts its title names. Returns the total.
 */
export async function expectUsage(page: Page): Promise<number> {
  const usage = page.getByTestId('message-assistant').last().getByTestId('message-usage');
  await expect(usage).toHaveText(/^[1-9][\d,]* tokens$/);
  const count = (text: string | undefined) => Number((text ?? '').replaceAll(',', ''));
  const total = count((await usage.textContent())?.replace(' tokens', ''));
  const [, input, output] = (await usage.getAttribute('title'))?.match(/([\d,]+) in, .*?([\d,]+) out/) ?? [];
  expect(count(input) + count(output)).toBe(total);
  return total;
}

/**
 * Slows the offline model of the page's next chat POST to `ms` a stream part (the Worker's TEST_CLOCK hook): its turn
 * runs for seconds, so the test can act and reload while it still runs. The POSTs after it are not slowed.
 */
export async function slowNextTurn(page: Page, ms: number): Promise<void> {
  let slowed = false;
  await page.route('**/api/chat', (route) => {
    if (slowed || route.request().method() !== 'POST') return route.continue();
    slowed = true;
    return route.continue({ headers: { ...route.request().headers(), 'x-test-offline-delay-ms': String(ms) } });
  });
}

/**
 * Answers the page's next request to /api/chat with the Worker's real answer rewritten: `edit` gets its SSE events (the
 * body split on blank lines) and returns the body sent instead (a proxy that cuts, mangles or breaks the stream).
 */
export async function rewriteNextAnswer(page: Page, edit: (events: string[]) => string): Promise<void> {
  await page.route(
    '**/api/chat',
    async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, body: edit((await response.text()).split('\n\n')) });
    },
    { times: 1 },
  );
}

/**
 * Holds the page's next request to /api/chat until the returned function is called (then it goes on to the Worker):
 * the test can read what the page shows while it waits for an answer.
 */
export async function holdNextAnswer(page: Page): Promise<() => void> {
  let release = (): void => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    '**/api/chat',
    async (route) => {
      await held;
      await route.continue();
    },
    { times: 1 },
  );
  return release;
}

/** The next answer fails with the server's error event right after its first event that contains `marker`. */
export function failNextAnswerAfter(page: Page, marker: string): Promise<void> {
  return rewriteNextAnswer(page, (events) => {
    const at = events.findIndex((event) => event.includes(marker)) + 1;
    const error = `data: ${JSON.stringify({ type: 'error', errorText: 'The model provider failed.' })}`;
    return `${[...events.slice(0, at), error].join('\n\n')}\n\n`;
  });
}
