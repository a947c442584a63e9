// The error banner's advice, rendered with react-dom/server: what a reader (and a screen reader) gets.
import type { ChatErrorInfo } from '@edgetool/react';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { BannerContext } from '../lib/error-hint.ts';
import { ErrorBanner } from './error-banner.tsx';

const api = { url: 'http://127.0.0.1:8787/api', host: '127.0.0.1:8787', proxied: false, start: 'npm start' };
const noop = () => {};
const banner = (error: ChatErrorInfo, context: BannerContext, onNewChat?: () => void): string =>
  renderToStaticMarkup(createElement(ErrorBanner, { error, context, api, onDismiss: noop, onNewChat })).replaceAll('&quot;', '"');

describe('the banner after the Worker refused a conversation that holds a call id twice (a server repeated it)', () => {
  const message = 'The tool call c1 ("cart_add") appears more than once in the history.';
  const duplicate: ChatErrorInfo = { kind: 'refused', status: 403, code: 'ticket-invalid', message, toolCallId: 'c1' };

  it('says what happened and that a new chat goes on; it said to send a new message, which is refused the same way', () => {
    const html = banner(duplicate, { server: 'online', answered: false, repeated: new Set(['c1']) }, noop);
    expect(html).toContain('The server sent a second call with the id c1 (its card above says "not run")');
    expect(html).toContain('every message, Retry or Ask again in this chat is refused the same way. New chat goes on');
    expect(html).not.toContain('Send a new message');
    expect(html).toContain('data-testid="error-new-chat"');
  });

  it('a refusal of another call keeps the ticket advice', () => {
    const html = banner({ ...duplicate, toolCallId: 'c2' }, { server: 'online', answered: false, repeated: new Set(['c1']) });
    expect(html).toContain('Send a new message to go on.');
    expect(html).not.toContain('second call');
  });
});
