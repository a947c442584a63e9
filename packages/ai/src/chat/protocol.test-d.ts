import { describe, expectTypeOf, it } from 'vitest';
import type {
  EdgetoolDataParts,
  EdgetoolUIMessage,
  EditPartData,
  PartSealPartData,
  ProgressPartData,
  SealPartData,
  SubCallTraceData,
  TicketPartData,
  TracePartData,
} from './protocol.ts';

type Part<M extends { parts: readonly unknown[] }> = M['parts'][number];
type DataOf<M extends { parts: readonly unknown[] }, T extends string> = Extract<Part<M>, { type: T }> extends { data: infer D } ? D : never;

describe('EdgetoolUIMessage: the data parts are exactly edgetool’s', () => {
  it('each edgetool part narrowed by its type has its own data, not unknown', () => {
    expectTypeOf<DataOf<EdgetoolUIMessage, 'data-edgetool-ticket'>>().toEqualTypeOf<TicketPartData>();
    expectTypeOf<DataOf<EdgetoolUIMessage, 'data-edgetool-seal'>>().toEqualTypeOf<SealPartData>();
    expectTypeOf<DataOf<EdgetoolUIMessage, 'data-edgetool-trace'>>().toEqualTypeOf<TracePartData>();
    expectTypeOf<DataOf<EdgetoolUIMessage, 'data-edgetool-progress'>>().toEqualTypeOf<ProgressPartData>();
    expectTypeOf<DataOf<EdgetoolUIMessage, 'data-edgetool-edit'>>().toEqualTypeOf<EditPartData>();
    expectTypeOf<DataOf<EdgetoolUIMessage, 'data-edgetool-part-seal'>>().toEqualTypeOf<PartSealPartData>();
    const read = (part: Part<EdgetoolUIMessage>) => {
      if (part.type === 'data-edgetool-seal') expectTypeOf(part.data).toEqualTypeOf<SealPartData>();
      if (part.type === 'data-edgetool-ticket') expectTypeOf(part.data.purpose).toEqualTypeOf<'approval' | 'client-result'>();
    };
    void read;
  });

  it('a trace part may carry an agent call’s sub-calls, nested, typed as its own calls are', () => {
    expectTypeOf<TracePartData['calls']>().toEqualTypeOf<readonly SubCallTraceData[] | undefined>();
    expectTypeOf<SubCallTraceData['calls']>().toEqualTypeOf<readonly SubCallTraceData[] | undefined>();
    expectTypeOf<SubCallTraceData['outcome']>().toEqualTypeOf<TracePartData['outcome']>();
    expectTypeOf<SubCallTraceData['spans']>().toEqualTypeOf<TracePartData['spans']>();
  });

  it('names no other data part (an index signature widened every one to unknown)', () => {
    expectTypeOf<keyof EdgetoolDataParts>().toEqualTypeOf<
      'edgetool-ticket' | 'edgetool-seal' | 'edgetool-trace' | 'edgetool-progress' | 'edgetool-edit' | 'edgetool-part-seal'
    >();
    expectTypeOf<Extract<Part<EdgetoolUIMessage>, { type: 'data-weather' }>>().toBeNever();
    // @ts-expect-error not a data part of an edgetool chat
    const stray: Part<EdgetoolUIMessage> = { type: 'data-weather', data: { city: 'Oslo' } };
    void stray;
  });

  it("takes an app's own data parts through its type parameter, beside edgetool's", () => {
    interface Weather {
      readonly city: string;
      readonly celsius: number;
    }
    type AppMessage = EdgetoolUIMessage<{ weather: Weather }>;
    expectTypeOf<DataOf<AppMessage, 'data-weather'>>().toEqualTypeOf<Weather>();
    expectTypeOf<DataOf<AppMessage, 'data-edgetool-seal'>>().toEqualTypeOf<SealPartData>();
    expectTypeOf<Extract<Part<AppMessage>, { type: 'data-other' }>>().toBeNever();
    const part: Part<AppMessage> = { type: 'data-weather', data: { city: 'Oslo', celsius: 3 } };
    // @ts-expect-error the app's part has the app's data
    const wrong: Part<AppMessage> = { type: 'data-weather', data: { city: 'Oslo' } };
    void [part, wrong];
    // @ts-expect-error edgetool's names are taken: an app cannot retype a seal
    const retyped: EdgetoolUIMessage<{ 'edgetool-seal': string }> | undefined = undefined;
    void retyped;
    expectTypeOf<EdgetoolUIMessage<{}>>().toEqualTypeOf<EdgetoolUIMessage>();
  });
});
