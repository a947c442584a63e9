import type { UIDataTypes, UIMessagePart, UITools } from 'ai';
import { describe, expectTypeOf, it } from 'vitest';
import type { SealedPartType, UnsealedPartType } from './part-seal.ts';

type Part = UIMessagePart<UIDataTypes, UITools>;
/** The `type` of each part of the installed `ai`'s UI messages that has a property `key`. */
type TypesWith<P, K extends string> = P extends { readonly type: infer T } ? (K extends keyof P ? T : never) : never;

describe("the part seal covers every UI part type that carries providerMetadata in the installed 'ai'", () => {
  it('a part type with providerMetadata is sealed or documented as unsealed (a new one in an ai update fails here)', () => {
    expectTypeOf<Exclude<TypesWith<Part, 'providerMetadata'>, SealedPartType | UnsealedPartType>>().toEqualTypeOf<never>();
  });

  it('every type the seal or the exclusions name still carries providerMetadata (neither list is stale)', () => {
    expectTypeOf<Exclude<SealedPartType | UnsealedPartType, TypesWith<Part, 'providerMetadata'>>>().toEqualTypeOf<never>();
  });

  it("a call's metadata sits on tool parts only, which a result's seal or a ticket covers", () => {
    type CallMetadata = TypesWith<Part, 'callProviderMetadata'> | TypesWith<Part, 'resultProviderMetadata'>;
    expectTypeOf<Exclude<CallMetadata, `tool-${string}` | 'dynamic-tool'>>().toEqualTypeOf<never>();
  });
});
