import type { UseChatHelpers } from '@ai-sdk/react';
import type { EdgetoolUIMessage } from '@edgetool/ai';
import type { ToolErrorMessage } from '@edgetool/core';
import { describe, expectTypeOf, it } from 'vitest';
import type { UseEdgeChatOptions, UseEdgeChatResult } from './use-edge-chat.ts';

describe('useEdgeChat types: toolErrorMessage', () => {
  it("takes the executor's presets and functions", () => {
    expectTypeOf<UseEdgeChatOptions['toolErrorMessage']>().toEqualTypeOf<ToolErrorMessage | undefined>();
    const hidden: UseEdgeChatOptions = { toolErrorMessage: 'hide-unexpected' };
    const worded: UseEdgeChatOptions = { toolErrorMessage: (error, call) => (error.unexpected ? `Failed (${call.id}).` : undefined) };
    // @ts-expect-error not a preset
    const typo: UseEdgeChatOptions = { toolErrorMessage: 'hide-all' };
    void [hidden, worded, typo];
  });
});

describe('useEdgeChat types: the helpers that leave an answer', () => {
  it("keep useChat's signatures", () => {
    expectTypeOf<UseEdgeChatResult['sendMessage']>().toEqualTypeOf<UseChatHelpers<EdgetoolUIMessage>['sendMessage']>();
    expectTypeOf<UseEdgeChatResult['regenerate']>().toEqualTypeOf<UseChatHelpers<EdgetoolUIMessage>['regenerate']>();
    expectTypeOf<UseEdgeChatResult['setMessages']>().toEqualTypeOf<UseChatHelpers<EdgetoolUIMessage>['setMessages']>();
  });
});
