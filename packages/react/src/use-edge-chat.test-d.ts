import type { UseChatHelpers } from '@ai-sdk/react';
import type { EdgetoolUIMessage, SealPartData } from '@edgetool/ai';
import type { ToolErrorMessage } from '@edgetool/core';
import { describe, expectTypeOf, it } from 'vitest';
import { type ApproveOptions, type ChatAnswerFunctions, type ContinuationHold, type UseEdgeChatOptions, type UseEdgeChatResult, useEdgeChat } from './use-edge-chat.ts';

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

describe('useEdgeChat types: answers go through approve and deny', () => {
  it("has no useChat function that answers a call around the browser chain", () => {
    expectTypeOf<UseEdgeChatResult>().not.toHaveProperty('addToolOutput');
    expectTypeOf<UseEdgeChatResult>().not.toHaveProperty('addToolResult');
    expectTypeOf<UseEdgeChatResult>().not.toHaveProperty('addToolApprovalResponse');
    expectTypeOf<ChatAnswerFunctions>().toEqualTypeOf<'addToolOutput' | 'addToolResult' | 'addToolApprovalResponse'>();
    expectTypeOf<UseEdgeChatResult['approve']>().toEqualTypeOf<(toolCallId: string, options?: ApproveOptions) => void>();
  });
});

describe('useEdgeChat types: data parts', () => {
  interface Weather {
    readonly city: string;
    readonly celsius: number;
  }
  type DataOf<M extends { parts: readonly unknown[] }, T extends string> = Extract<M['parts'][number], { type: T }> extends { data: infer D } ? D : never;

  it("edgetool's parts keep their data; an app's own come in through the hook's type parameter", () => {
    type Plain = UseEdgeChatResult['messages'][number];
    expectTypeOf<Plain>().toEqualTypeOf<EdgetoolUIMessage>();
    expectTypeOf<DataOf<Plain, 'data-edgetool-seal'>>().toEqualTypeOf<SealPartData>();
    expectTypeOf<Extract<Plain['parts'][number], { type: 'data-weather' }>>().toBeNever();
    type WithWeather = UseEdgeChatResult<{ weather: Weather }>['messages'][number];
    expectTypeOf<WithWeather>().toEqualTypeOf<EdgetoolUIMessage<{ weather: Weather }>>();
    expectTypeOf<DataOf<WithWeather, 'data-weather'>>().toEqualTypeOf<Weather>();
    expectTypeOf<DataOf<WithWeather, 'data-edgetool-seal'>>().toEqualTypeOf<SealPartData>();
    expectTypeOf(useEdgeChat<{ weather: Weather }>).returns.toEqualTypeOf<UseEdgeChatResult<{ weather: Weather }>>();
    expectTypeOf<NonNullable<UseEdgeChatOptions<{ weather: Weather }>['messages']>>().toEqualTypeOf<EdgetoolUIMessage<{ weather: Weather }>[]>();
  });
});

describe('useEdgeChat types: resume', () => {
  it('is a boolean option, and the saved turn a string in browserState', () => {
    expectTypeOf<UseEdgeChatOptions['resume']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<UseEdgeChatResult['browserState']['turn']>().toEqualTypeOf<string | undefined>();
    const resuming: UseEdgeChatOptions = { resume: true };
    // @ts-expect-error resume takes no store or URL: the server serves GET and DELETE {api}/{id}/stream
    const wrong: UseEdgeChatOptions = { resume: { api: '/api/chat' } };
    void [resuming, wrong];
  });
});

describe('useEdgeChat types: the continuations it sends itself, and the outputs it sends', () => {
  it('takes numbers, and says why a continuation waits', () => {
    expectTypeOf<UseEdgeChatOptions['maxAutoContinuations']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<UseEdgeChatOptions['maxOutputBytes']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<UseEdgeChatResult['continuationHeld']>().toEqualTypeOf<ContinuationHold | undefined>();
    expectTypeOf<UseEdgeChatResult['maxAutoContinuations']>().toEqualTypeOf<number>();
    expectTypeOf<ContinuationHold>().toEqualTypeOf<'limit' | 'untaken'>();
  });
});
