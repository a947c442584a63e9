import { expect, type Page, test } from '@playwright/test';
import { deliveryDate, idle, openChat, send, toolCard } from './support.ts';

/** The bodies of the chat requests the page posts from now on. */
function recordPosts(page: Page): { readonly bodies: string[] } {
  const bodies: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/chat')) bodies.push(request.postData() ?? '');
  });
  return { bodies };
}

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
