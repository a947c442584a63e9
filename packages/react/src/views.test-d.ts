import { defineTool } from '@edgetool/core';
import * as v from 'valibot';
import { describe, expectTypeOf, it } from 'vitest';
import type { UseEdgeChatOptions, UseEdgeChatResult } from './use-edge-chat.ts';
import { callOf, isPendingApproval, type PendingApproval, pendingApprovals, type ToolCallApproval, type ToolCallView } from './views.ts';

const moveDate = defineTool({
  name: 'update_delivery_date',
  description: 'Move a delivery',
  input: v.object({ order_id: v.string(), new_date: v.string(), note: v.optional(v.string()), days: v.optional(v.number(), 1) }),
  policy: { effects: 'write' },
  execute: () => 'moved',
});
interface MoveInput {
  order_id: string;
  new_date: string;
  note?: string | undefined;
  days: number;
}

describe('one shape for a pending approval', () => {
  it('is the call’s view, narrowed: the hook’s list, autoApprove and the views all have it', () => {
    expectTypeOf<PendingApproval>().toExtend<ToolCallView>();
    expectTypeOf<PendingApproval['status']>().toEqualTypeOf<'awaiting-approval'>();
    expectTypeOf<PendingApproval['approval']>().toEqualTypeOf<ToolCallApproval>();
    expectTypeOf<ToolCallView['approval']>().toEqualTypeOf<ToolCallApproval | undefined>();
    expectTypeOf<UseEdgeChatResult['pendingApprovals']>().toEqualTypeOf<readonly PendingApproval[]>();
    expectTypeOf<NonNullable<UseEdgeChatOptions['autoApprove']>>().parameter(0).toEqualTypeOf<PendingApproval>();
    expectTypeOf(pendingApprovals).returns.toEqualTypeOf<PendingApproval[]>();
    expectTypeOf<PendingApproval['approval']['source']>().toEqualTypeOf<'server' | 'browser'>();
    expectTypeOf<PendingApproval['approval']['requestReason']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<PendingApproval['editable']>().toEqualTypeOf<true | readonly string[] | undefined>();
    // The flat fields of the old shape are gone: who asks and why are on `approval`.
    expectTypeOf<PendingApproval>().not.toHaveProperty('source');
    expectTypeOf<PendingApproval>().not.toHaveProperty('requestReason');
  });

  it('isPendingApproval narrows a view', () => {
    const view = {} as ToolCallView;
    if (isPendingApproval(view)) {
      expectTypeOf(view).toEqualTypeOf<PendingApproval>();
      expectTypeOf(view.approval.id).toBeString();
    }
  });
});

describe('callOf: arguments typed by the tool’s schema', () => {
  it('types a pending approval’s input by the tool it names, as the schema reads it (defaults filled)', () => {
    const pending = {} as PendingApproval;
    expectTypeOf(pending.input).toBeUnknown();
    const typed = callOf(pending, moveDate);
    expectTypeOf(typed).toEqualTypeOf<PendingApproval<MoveInput> | undefined>();
    if (typed !== undefined) {
      expectTypeOf(typed.input.new_date).toBeString();
      expectTypeOf(typed.input.days).toBeNumber();
      expectTypeOf(typed.approval.source).toEqualTypeOf<'server' | 'browser'>();
      // @ts-expect-error not an argument of the tool
      void typed.input.order;
    }
  });

  it('types any view the same way, and an autoApprove can read typed arguments', () => {
    expectTypeOf(callOf({} as ToolCallView, moveDate)).toEqualTypeOf<ToolCallView<MoveInput> | undefined>();
    const autoApprove: UseEdgeChatOptions['autoApprove'] = (call) => {
      const move = callOf(call, moveDate);
      return move !== undefined && move.input.new_date < '2027-01-01';
    };
    void autoApprove;
  });
});
