import type { UseChatHelpers } from '@ai-sdk/react';
import type { EdgetoolUIMessage } from '@edgetool/ai';
import { describe, expectTypeOf, it } from 'vitest';
import type { UseEdgeChatResult } from './use-edge-chat.ts';

describe('useEdgeChat types: the helpers that leave an answer', () => {
  it("keep useChat's signatures", () => {
    expectTypeOf<UseEdgeChatResult['sendMessage']>().toEqualTypeOf<UseChatHelpers<EdgetoolUIMessage>['sendMessage']>();
    expectTypeOf<UseEdgeChatResult['regenerate']>().toEqualTypeOf<UseChatHelpers<EdgetoolUIMessage>['regenerate']>();
    expectTypeOf<UseEdgeChatResult['setMessages']>().toEqualTypeOf<UseChatHelpers<EdgetoolUIMessage>['setMessages']>();
  });
});
