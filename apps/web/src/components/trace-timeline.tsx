import { type CallTrace, type SubCallRow, subCallRows, timelineBars } from '@edgetool/react';
import type { ReactElement } from 'react';
import { durationTitle, formatDuration } from '../lib/format.ts';

/**
 * One call's chains as a timeline: a row per interceptor and the execute span, bars to scale; an agent call's sub-agent
 * calls under them, indented by level, each with its outcome and a bar from its first layer's start to its last's end.
 */
export function TraceTimeline({ traces }: { readonly traces: readonly CallTrace[] }): ReactElement | null {
  if (traces.length === 0) return null;
  return (
    <div className="timeline" data-testid="trace-timeline">
      {traces.map((trace, index) => (
        <section
          // biome-ignore lint/suspicious/noArrayIndexKey: traces are append-only; their order is their identity.
          key={index}
          className="timeline-trace"
          data-side={trace.side}
          data-outcome={trace.outcome}
        >
          <header className="timeline-head">
            <span className={`side-tag side-${trace.side}`}>{trace.side === 'client' ? 'browser chain' : 'server chain'}</span>
            <span className="timeline-outcome">{trace.errorCode ?? trace.outcome}</span>
            <span className="timeline-total" title={durationTitle(trace.durationMs, trace.side)}>
              {formatDuration(trace.durationMs)}
            </span>
          </header>
          <ol className="timeline-rows">
            {timelineBars(trace).map((bar, row) => (
              <li
                // biome-ignore lint/suspicious/noArrayIndexKey: spans of one trace never reorder.
                key={row}
                className="timeline-row"
                data-testid="trace-span"
                data-kind={bar.kind}
                data-outcome={bar.outcome}
              >
                <span className="timeline-name" style={{ paddingInlineStart: `${bar.depth * 10}px` }} title={bar.name}>
                  {bar.kind === 'execute' ? `▸ ${bar.name}` : bar.name}
                </span>
                <span className="timeline-track">
                  <span className="timeline-bar" style={{ left: `${bar.offsetPct}%`, width: `${bar.widthPct}%` }} />
                </span>
                <span className="timeline-ms" title={durationTitle(bar.durationMs, trace.side)}>
                  {formatDuration(bar.durationMs)}
                </span>
              </li>
            ))}
            {subCallRows(trace).map((row) => (
              <SubCall key={`${row.level}:${row.toolCallId}`} row={row} under={deepest(trace)} side={trace.side} />
            ))}
            {trace.omittedCalls ? <MoreCalls count={trace.omittedCalls} level={deepest(trace) + 1} /> : null}
          </ol>
        </section>
      ))}
    </div>
  );
}

/** The depth of a trace's innermost layer (its `execute`): sub-agent calls are indented past it. */
const deepest = (trace: CallTrace): number => Math.max(0, ...trace.spans.map((span) => span.depth));

/**
 * A call of the agent's sub-agent: its name, indented under the agent call's layers, its bar and its time, and its
 * outcome on a line of its own under its name (over the track, it covered the bar).
 */
function SubCall({ row, under, side }: { readonly row: SubCallRow; readonly under: number; readonly side: CallTrace['side'] }): ReactElement {
  const first = Math.min(...row.bars.map((bar) => bar.offsetPct));
  const last = Math.max(...row.bars.map((bar) => bar.offsetPct + bar.widthPct));
  const failed = row.outcome === 'error';
  return (
    <>
      <li className="timeline-row timeline-call" data-testid="trace-subcall" data-tool={row.toolName} data-level={row.level} data-outcome={row.outcome}>
        <span className="timeline-name" style={{ paddingInlineStart: `${(under + row.level) * 10}px` }} title={`${row.toolName}: ${row.errorCode ?? row.outcome}`}>
          ↳ {row.toolName}
        </span>
        <span className="timeline-track">
          {row.bars.length > 0 ? <span className="timeline-bar" style={{ left: `${first}%`, width: `${Math.max(last - first, 0.5)}%` }} /> : null}
        </span>
        <span
          className={failed ? 'timeline-call-outcome timeline-call-failed' : 'timeline-call-outcome'}
          style={{ paddingInlineStart: `${(under + row.level) * 10}px` }}
          data-testid="trace-subcall-outcome"
        >
          {row.errorCode ?? row.outcome}
        </span>
        <span className="timeline-ms" title={durationTitle(row.durationMs, side)}>
          {formatDuration(row.durationMs)}
        </span>
      </li>
      {row.omittedCalls > 0 ? <MoreCalls count={row.omittedCalls} level={under + row.level + 1} /> : null}
    </>
  );
}

/** The calls the server left out of a trace (it sends at most 20). */
function MoreCalls({ count, level }: { readonly count: number; readonly level: number }): ReactElement {
  return (
    <li className="timeline-row timeline-more" data-testid="trace-subcalls-omitted">
      <span className="timeline-name" style={{ paddingInlineStart: `${level * 10}px` }}>
        … {count} more {count === 1 ? 'call' : 'calls'}
      </span>
    </li>
  );
}
