import { describe, expectTypeOf, it } from 'vitest';
import { CallsPendingError } from './pending-calls.ts';

describe('CallsPendingError types', () => {
  it('is an Error with a stable code and the ids of the calls that wait', () => {
    const error = new CallsPendingError(['call_0']);
    expectTypeOf(error).toExtend<Error>();
    expectTypeOf(error.code).toEqualTypeOf<'calls-pending'>();
    expectTypeOf(error.toolCallIds).toEqualTypeOf<readonly string[]>();
    expectTypeOf(CallsPendingError).constructorParameters.toEqualTypeOf<[toolCallIds: readonly string[]]>();
  });

  it('isInstance narrows an unknown rejection', () => {
    const value: unknown = null;
    if (CallsPendingError.isInstance(value)) expectTypeOf(value).toEqualTypeOf<CallsPendingError>();
  });
});
