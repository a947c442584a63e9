import { describe, expectTypeOf, it } from 'vitest';
import type { ToolError } from '../errors/tool-error.ts';
import {
  canonicalJson,
  createMemoryNonceStore,
  createTicketSigner,
  hashArguments,
  type NonceStore,
  type SealSubject,
  TicketError,
  type TicketClaims,
  type TicketErrorReason,
  type TicketMismatchField,
  type TicketPurpose,
  type TicketSigner,
  type TicketSubject,
  type TicketVerifyOptions,
  type TicketVerifyResult,
} from './index.ts';

describe('tickets types', () => {
  it('types the helpers', () => {
    expectTypeOf(canonicalJson).toEqualTypeOf<(value: unknown) => string>();
    expectTypeOf(hashArguments).toEqualTypeOf<(args: unknown) => Promise<string>>();
    expectTypeOf(createMemoryNonceStore).returns.toEqualTypeOf<NonceStore>();
    expectTypeOf(createMemoryNonceStore).toBeCallableWith();
    expectTypeOf(createMemoryNonceStore).toBeCallableWith({ maxEntries: 10, now: () => 0 });
    expectTypeOf<NonceStore['claim']>().toEqualTypeOf<(nonce: string, expiresAt: number) => Promise<boolean>>();
    // Optional and additive: a store written before it (claim alone) is still a NonceStore.
    expectTypeOf<NonceStore['claimDecision']>().toEqualTypeOf<((nonce: string, expiresAt: number, decision: string) => Promise<true | string | null>) | undefined>();
    expectTypeOf<{ claim(nonce: string, expiresAt: number): Promise<boolean> }>().toExtend<NonceStore>();
    expectTypeOf<TicketVerifyOptions['decision']>().toEqualTypeOf<string | undefined>();
  });

  it('types the signer', () => {
    expectTypeOf(createTicketSigner).returns.toEqualTypeOf<TicketSigner>();
    expectTypeOf(createTicketSigner).toBeCallableWith({ keys: [{ id: 'k', secret: 'x' }] });
    expectTypeOf(createTicketSigner).toBeCallableWith({ keys: [{ id: 'k', secret: new Uint8Array(32) }], ttlMs: 1, now: () => 0 });
    // @ts-expect-error keys are required
    createTicketSigner({});
    // @ts-expect-error exactOptionalPropertyTypes: no explicit undefined
    createTicketSigner({ keys: [], ttlMs: undefined });

    const signer = createTicketSigner({ keys: [{ id: 'k', secret: 'x' }] });
    expectTypeOf(signer.sign).returns.toEqualTypeOf<Promise<string>>();
    expectTypeOf(signer.sign).parameter(0).toEqualTypeOf<TicketSubject>();
    expectTypeOf(signer.verify).parameter(0).toEqualTypeOf<string | undefined | null>();
    expectTypeOf(signer.verify).returns.toEqualTypeOf<Promise<TicketClaims>>();
    expectTypeOf(signer.safeVerify).returns.toEqualTypeOf<Promise<TicketVerifyResult>>();
    expectTypeOf(signer.peek).returns.toEqualTypeOf<TicketClaims | undefined>();
    // Optional, so a signer of one's own (or a wrapped one) still is a TicketSigner.
    expectTypeOf(signer.claimMark).toEqualTypeOf<((ticket: string, mark: string) => Promise<boolean>) | undefined>();
    expectTypeOf(signer.seal).parameter(0).toEqualTypeOf<SealSubject>();
    expectTypeOf(signer.seal).returns.toEqualTypeOf<Promise<string>>();
    expectTypeOf(signer.verifySeal).returns.toEqualTypeOf<Promise<void>>();
  });

  it('types the subject and the claims', () => {
    expectTypeOf<TicketPurpose>().toEqualTypeOf<'approval' | 'client-result'>();
    expectTypeOf<TicketSubject['args']>().toBeUnknown();
    expectTypeOf<TicketClaims['v']>().toEqualTypeOf<1>();
    expectTypeOf<TicketClaims['exp']>().toBeNumber();
    expectTypeOf<TicketClaims['purpose']>().toEqualTypeOf<TicketPurpose>();
    // @ts-expect-error purposes are a closed set
    const subject: TicketSubject = { purpose: 'execute', toolName: 't', callId: 'c', args: {}, conversationId: 'v' };
    void subject;
  });

  it('narrows safeVerify results', async () => {
    const result = await createTicketSigner({ keys: [{ id: 'k', secret: 'x' }] }).safeVerify('t', {
      purpose: 'approval',
      toolName: 't',
      callId: 'c',
      args: {},
      conversationId: 'v',
    });
    if (result.ok) {
      expectTypeOf(result.claims).toEqualTypeOf<TicketClaims>();
    } else {
      expectTypeOf(result.error).toEqualTypeOf<TicketError>();
      expectTypeOf(result.error.reason).toEqualTypeOf<TicketErrorReason>();
      expectTypeOf(result.error.field).toEqualTypeOf<TicketMismatchField | undefined>();
    }
  });

  it('makes TicketError a ToolError', () => {
    expectTypeOf<TicketError>().toExtend<ToolError>();
    expectTypeOf<TicketError['code']>().toEqualTypeOf<ToolError['code']>();
    expectTypeOf<TicketErrorReason>().toEqualTypeOf<
      'missing' | 'malformed' | 'unknown-key' | 'bad-signature' | 'expired' | 'mismatch' | 'replayed' | 'conflict'
    >();
    expectTypeOf<TicketMismatchField>().toEqualTypeOf<'purpose' | 'toolName' | 'callId' | 'conversationId' | 'args'>();
    const value: unknown = null;
    if (TicketError.isInstance(value)) expectTypeOf(value).toEqualTypeOf<TicketError>();
  });
});
