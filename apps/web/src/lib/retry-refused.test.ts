import type { ToolCallView } from '@edgetool/react';
import { describe, expect, it } from 'vitest';
import { retryRefusedText, stillWaiting } from './retry-refused.ts';

const view = (toolCallId: string, toolName: string, status: ToolCallView['status']) => ({ toolCallId, toolName, status }) as ToolCallView;

describe('a Retry refused while calls wait', () => {
  it('says which calls wait, and for what', () => {
    const calls = new Map([
      ['a1', view('a1', 'update_delivery_date', 'awaiting-approval')],
      ['b1', view('b1', 'pick_date', 'running')],
    ]);
    const waiting = stillWaiting({ chatId: 'c', toolCallIds: ['a1', 'b1'] }, 'c', calls);
    expect(retryRefusedText(waiting)).toBe(
      'Nothing was sent: 2 calls still wait above (update_delivery_date for your approval, pick_date for its answer in this page). ' +
        'The answer goes out by itself once they are answered.',
    );
    expect(retryRefusedText(waiting.slice(1))).toBe('Nothing was sent: pick_date still waits above, for its answer in this page. The answer goes out by itself once it is answered.');
  });

  it('names only the calls that still wait: none once they are answered, none in another chat', () => {
    const calls = new Map([
      ['a1', view('a1', 'update_delivery_date', 'approved')],
      ['b1', view('b1', 'pick_date', 'running')],
    ]);
    expect(stillWaiting({ chatId: 'c', toolCallIds: ['a1', 'b1'] }, 'c', calls).map((v) => v.toolCallId)).toEqual(['b1']);
    expect(stillWaiting({ chatId: 'c', toolCallIds: ['a1'] }, 'c', calls)).toEqual([]);
    expect(stillWaiting({ chatId: 'c', toolCallIds: ['b1'] }, 'other', calls)).toEqual([]);
    expect(stillWaiting(undefined, 'c', calls)).toEqual([]);
    expect(retryRefusedText([])).toBe('');
  });
});
