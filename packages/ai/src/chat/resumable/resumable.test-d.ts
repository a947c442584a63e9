import { createRunContext, createTicketSigner } from '@edgetool/core';
import { describe, expectTypeOf, it } from 'vitest';
import { scriptedModel } from '../../testing/mock-model.ts';
import { createChatAgent } from '../chat-agent.ts';
import {
  type CancelResumableOptions,
  cancelResumable,
  createMemoryResumableStore,
  type ResumableEnd,
  type ResumableOptions,
  type ResumableRecording,
  type ResumableStore,
  type ResumableStoreError,
  type ResumeOptions,
  resumeResponse,
} from './index.ts';

const store = createMemoryResumableStore();
const tickets = createTicketSigner({ keys: [{ id: 'k1', secret: 'a-type-test-secret-of-32-bytes-!!' }] });
const agent = createChatAgent({ model: scriptedModel(), tools: [], tickets });

describe('resumable types: turn.toResponse({ resumable })', () => {
  it('takes ResumableOptions, and answers a Response', async () => {
    const turn = await agent.stream({ messages: 'Hi', run: createRunContext() });
    expectTypeOf(turn.toResponse).parameter(0).exclude<undefined>().toHaveProperty('resumable').toEqualTypeOf<ResumableOptions | undefined>();
    expectTypeOf(turn.toResponse({ resumable: { store, chatId: 'c', owner: 'u', waitUntil: () => {} } })).toEqualTypeOf<Response>();
    // The store, chat, owner and waitUntil are required; a turn id may be the header as read (null when absent).
    // @ts-expect-error no owner
    turn.toResponse({ resumable: { store, chatId: 'c', waitUntil: () => {} } });
    turn.toResponse({ resumable: { store, chatId: 'c', owner: 'u', waitUntil: () => {}, turnId: new Headers().get('x-edgetool-turn') } });
  });

  it('hands onError a ResumableStoreError', () => {
    expectTypeOf<ResumableOptions['onError']>().toEqualTypeOf<((error: ResumableStoreError) => void) | undefined>();
    expectTypeOf<ResumableStoreError['operation']>().toEqualTypeOf<'append' | 'finish' | 'read' | 'cancel'>();
  });
});

describe('resumable types: resumeResponse, cancelResumable and the store', () => {
  it('resume and cancel take the chat and its owner', () => {
    expectTypeOf(resumeResponse).parameter(0).toEqualTypeOf<ResumeOptions>();
    expectTypeOf(resumeResponse).returns.toEqualTypeOf<Promise<Response>>();
    expectTypeOf(cancelResumable).parameter(0).toEqualTypeOf<CancelResumableOptions>();
    expectTypeOf<ResumeOptions['staleMs']>().toEqualTypeOf<number | undefined>();
    // @ts-expect-error no chat id
    void resumeResponse({ store, owner: 'u' });
  });

  it('a store reads a recording that says how it ended, or nothing', () => {
    expectTypeOf(store).toEqualTypeOf<ResumableStore>();
    expectTypeOf<ReturnType<ResumableStore['read']>>().toEqualTypeOf<Promise<ResumableRecording | undefined>>();
    expectTypeOf<ResumableRecording['end']>().toEqualTypeOf<ResumableEnd | undefined>();
    expectTypeOf<ResumableEnd>().toEqualTypeOf<'done' | 'cancelled'>();
  });
});
