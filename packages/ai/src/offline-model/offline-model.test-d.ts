import type { LanguageModelV4 } from '@ai-sdk/provider';
import { describe, expectTypeOf, it } from 'vitest';
import { createOfflineModel, type OfflineModelOptions } from './offline-model.ts';

describe('createOfflineModel types: now', () => {
  it('takes a clock of Dates, not of epoch numbers', () => {
    expectTypeOf<OfflineModelOptions['now']>().toEqualTypeOf<(() => Date) | undefined>();
    expectTypeOf(createOfflineModel({ now: () => new Date('2026-11-24T12:00:00Z') })).toEqualTypeOf<LanguageModelV4>();
    // @ts-expect-error a number clock (Date.now) is not a Date clock
    createOfflineModel({ now: Date.now });
  });
});
