import { describe, expect, it } from 'vitest';
import { approvalText } from './approval-text.ts';

describe('approvalText', () => {
  it('says who asks, as a whole sentence, for a browser tool as for a server call', () => {
    // A browser tool's approval read "This browser tool (destructive)." (no verb: the user was not told it asks).
    expect(approvalText({ source: 'browser', mode: 'internal', effects: 'destructive' })).toBe(
      'Your browser asks for your approval before it runs this tool (destructive).',
    );
    expect(approvalText({ source: 'browser', mode: 'manual', effects: undefined })).toBe('Your browser asks for your approval before it runs this tool.');
    expect(approvalText({ source: 'server', mode: 'internal', effects: 'write' })).toBe('The server needs your approval to run this call (write).');
    expect(approvalText({ source: 'server', mode: 'manual', effects: 'write' })).toBe('The server wants to run this call, and your browser asks you first (write).');
  });
});
