import type { RunContext } from '../context/run-context.ts';
import { traceIdKey } from '../interceptors/trace.ts';

/** A W3C `traceparent`, parsed: the caller's trace, and the span that what runs here becomes a child of. */
export interface TraceParent {
  /** The trace: 32 lowercase hex digits, never all zeros. */
  readonly traceId: string;
  /** The caller's span (the parent of ours): 16 lowercase hex digits, never all zeros. */
  readonly parentId: string;
  /** The trace flags byte; bit 0 is "sampled" (the caller records this trace). */
  readonly flags: number;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZEROS = /^0+$/;

/**
 * Parses a W3C Trace Context `traceparent` (`00-<trace id>-<parent id>-<flags>`), or returns `undefined` for anything
 * that is not a valid one: a malformed value, version `ff`, an all-zero id, two headers joined by a comma. A later
 * version is read for its first four fields, as the specification asks.
 */
export function parseTraceparent(value: string | null | undefined): TraceParent | undefined {
  if (typeof value !== 'string') return undefined;
  const match = TRACEPARENT.exec(value.trim());
  if (match === null) return undefined;
  const [, version, traceId, parentId, flags, rest] = match as unknown as [string, string, string, string, string, string | undefined];
  if (version === 'ff' || (version === '00' && rest !== undefined) || ZEROS.test(traceId) || ZEROS.test(parentId)) return undefined;
  return { traceId, parentId, flags: Number.parseInt(flags, 16) };
}

/**
 * Writes a {@link TraceParent} as a version 00 `traceparent` header value. Only the flags version 00 defines pass
 * (sampled, and Level 2's random): the specification has a writer set the others to zero, and a later version's
 * parsed header may carry them.
 */
export function formatTraceparent(parent: TraceParent): string {
  return `00-${parent.traceId}-${parent.parentId}-0${(parent.flags & 0x03).toString(16)}`;
}

/**
 * Puts the `traceparent` of the request a run serves (`request.headers.get('traceparent')`) on the run as its trace id
 * (`traceIdKey`), when it is a valid one; returns whether it was. Every call of the run, the calls refused before their
 * chain and those of sub-agents on forked runs included, then has that trace id in its record, so its exported spans
 * are children of that span in the request's trace. One agent can serve many requests: the context travels with each
 * request's run, not with the agent.
 */
export function setTraceparent(run: RunContext<unknown>, traceparent: string | null | undefined): boolean {
  const parent = parseTraceparent(traceparent);
  if (parent !== undefined) run.set(traceIdKey, formatTraceparent(parent));
  return parent !== undefined;
}
