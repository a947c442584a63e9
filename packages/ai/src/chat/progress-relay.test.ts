import type { UIMessageChunk } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createProgressRelay } from './progress-relay.ts';
import { PROGRESS_PART } from './protocol.ts';

const input = (id: string): UIMessageChunk => ({ type: 'tool-input-available', toolCallId: id, toolName: 'scan', input: {} });
const output = (id: string, preliminary?: boolean): UIMessageChunk => ({ type: 'tool-output-available', toolCallId: id, output: 1, ...(preliminary ? { preliminary } : {}) });
const report = (id: string, message: string) => ({ callId: id, toolName: 'scan', progress: { message } });
const messages = (chunks: readonly UIMessageChunk[] | UIMessageChunk | undefined) =>
  [chunks ?? []].flat().map((c) => (c.type === PROGRESS_PART ? `${(c as { id: string }).id}:${(c.data as { message: string }).message}` : c.type));

/** Whether `promise` has settled after the microtasks queued so far ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 0));
  return done;
}

describe('progress relay', () => {
  it('holds a report until its call is open in the stream, then sends only the latest', async () => {
    const relay = createProgressRelay();
    relay.report(report('c1', 'one'));
    relay.report(report('c1', 'two'));
    expect(relay.active()).toBe(false);
    expect(relay.take()).toEqual([]);
    expect(await settled(relay.arrived())).toBe(false);
    expect(relay.saw(input('c1'))).toBeUndefined();
    expect(relay.active()).toBe(true);
    const chunks = relay.take();
    expect(chunks).toEqual([{ type: PROGRESS_PART, id: 'c1', data: { toolCallId: 'c1', toolName: 'scan', message: 'two' }, transient: true }]);
    expect(relay.take()).toEqual([]);
  });

  it('asked before every chunk, it allocates nothing while no report waits, and arrived() resolves with undefined', async () => {
    const relay = createProgressRelay();
    relay.saw(input('c1'));
    expect(relay.take()).toBe(relay.take());
    relay.report(report('c1', 'one'));
    expect(messages(relay.take())).toEqual(['c1:one']);
    relay.report(report('c1', 'two'));
    expect(await relay.arrived()).toBeUndefined();
  });

  it('arrived() resolves when a report for an open call comes in, not before', async () => {
    const relay = createProgressRelay();
    relay.saw(input('c1'));
    const arrived = relay.arrived();
    expect(await settled(arrived)).toBe(false);
    relay.report(report('c2', 'not open'));
    expect(await settled(arrived)).toBe(false);
    relay.report(report('c1', 'open'));
    expect(await settled(arrived)).toBe(true);
    expect(messages(relay.take())).toEqual(['c1:open']);
  });

  it('listen() hears of a report only when its call is open', () => {
    const relay = createProgressRelay();
    const heard: number[] = [];
    relay.listen(() => heard.push(heard.length));
    relay.report(report('c1', 'not open yet'));
    expect(heard).toEqual([]);
    relay.saw(input('c1'));
    relay.report(report('c1', 'open'));
    relay.saw(output('c1'));
    relay.report(report('c1', 'closed'));
    expect(heard).toEqual([0]);
    expect(relay.take()).toEqual([]);
  });

  it('a result sends its call’s waiting report first, then closes the call for good', () => {
    const relay = createProgressRelay();
    relay.saw(input('c1'));
    relay.report(report('c1', 'last'));
    expect(messages(relay.saw(output('c1', true)))).toEqual([]);
    expect(messages(relay.saw(output('c1')))).toEqual(['c1:last']);
    relay.report(report('c1', 'late'));
    expect(relay.take()).toEqual([]);
    expect(relay.active()).toBe(false);
    relay.saw(input('c2'));
    relay.report(report('c2', 'x'));
    expect(messages(relay.saw({ type: 'tool-output-error', toolCallId: 'c2', errorText: 'no' }))).toEqual(['c2:x']);
    relay.saw(input('c3'));
    expect(relay.saw({ type: 'tool-output-denied', toolCallId: 'c3' })).toBeUndefined();
  });

  it('a continued turn opens only the calls that run now: a denied call, or one answered from its record, is never waited for', async () => {
    const denied = createProgressRelay({ decisions: new Map([['c1', { approved: false }], ['c2', { approved: false }]]) });
    expect(denied.active()).toBe(false);
    const decisions = new Map([['c1', { approved: true }], ['c2', { approved: false }], ['c3', { approved: true }]]);
    const relay = createProgressRelay({ decisions, replayed: new Set(['c3']) });
    expect(relay.active()).toBe(true);
    relay.report(report('c1', 'running'));
    expect(messages(relay.take())).toEqual(['c1:running']);
    relay.saw({ type: 'tool-output-denied', toolCallId: 'c2' });
    expect(relay.active()).toBe(true);
    relay.saw(output('c1'));
    expect(relay.active()).toBe(false);
  });

  it('a wait for a report ends when the last open call closes, or the stream ends: nothing is left pending', async () => {
    const relay = createProgressRelay({ decisions: new Map([['c1', { approved: true }]]) });
    relay.saw(input('c2'));
    const waiting = relay.arrived();
    relay.saw(output('c2'));
    expect(await settled(waiting)).toBe(false);
    // The approved call the AI SDK refused after all (its input no longer valid): its error closes it, the last one.
    relay.saw({ type: 'tool-output-error', toolCallId: 'c1', errorText: 'invalid' });
    expect(await settled(waiting)).toBe(true);
    const ending = createProgressRelay();
    ending.saw(input('c1'));
    const cut = ending.arrived();
    ending.saw({ type: 'abort' });
    expect(await settled(cut)).toBe(true);
  });

  it('the end of the stream drops everything', () => {
    const relay = createProgressRelay();
    relay.saw(input('c1'));
    relay.report(report('c1', 'x'));
    relay.saw({ type: 'abort' });
    expect(relay.active()).toBe(false);
    expect(relay.take()).toEqual([]);
  });
});

describe('progress relay properties', () => {
  type Step = { kind: 'report' | 'input' | 'output' | 'take'; call: number };
  const step = fc.record({ kind: fc.constantFrom('report', 'report', 'input', 'output', 'take'), call: fc.integer({ min: 0, max: 3 }) }) as fc.Arbitrary<Step>;

  it('a report goes out only while its call is open, always the latest, never twice, and the last one before the result', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const relay = createProgressRelay();
        const state = new Map<string, { opened: boolean; closed: boolean; latest: string | undefined; sent: string | undefined }>();
        let counter = 0;
        const of = (id: string) => {
          let s = state.get(id);
          if (s === undefined) {
            s = { opened: false, closed: false, latest: undefined, sent: undefined };
            state.set(id, s);
          }
          return s;
        };
        /** Checks every report chunk that went out, against the model of what may go out. */
        const check = (chunks: readonly UIMessageChunk[]) => {
          for (const chunk of chunks) {
            expect(chunk.type).toBe(PROGRESS_PART);
            const { id, data } = chunk as { id: string; data: { message: string } };
            const s = of(id);
            expect(s.opened && !s.closed).toBe(true);
            expect(data.message).toBe(s.latest);
            expect(data.message).not.toBe(s.sent);
            s.sent = data.message;
          }
        };
        for (const { kind, call } of steps) {
          const id = `c${call}`;
          const s = of(id);
          if (kind === 'report') {
            const message = `m${++counter}`;
            relay.report(report(id, message));
            if (!s.closed) s.latest = message;
          } else if (kind === 'input') {
            if (s.opened) continue;
            relay.saw(input(id));
            s.opened = true;
          } else if (kind === 'output') {
            if (!s.opened || s.closed) continue;
            const last = relay.saw(output(id));
            const pending = s.latest !== undefined && s.latest !== s.sent;
            check(last === undefined ? [] : [last]);
            expect(last !== undefined).toBe(pending);
            s.closed = true;
          } else {
            check(relay.take());
          }
        }
        // Whatever still waits belongs to open calls only, and is their latest report.
        check(relay.take());
        for (const s of state.values()) if (s.opened && !s.closed) expect(s.sent).toBe(s.latest);
      }),
      { numRuns: 500 },
    );
  });
});
