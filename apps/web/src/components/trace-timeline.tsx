import { type CallTrace, timelineBars } from '@edgetool/react';
import type { ReactElement } from 'react';
import { formatDuration } from '../lib/format.ts';

/** One call's chains as a timeline: a row per interceptor and the execute span, bars to scale. */
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
            <span className="timeline-total">{formatDuration(trace.durationMs)}</span>
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
                <span className="timeline-ms">{formatDuration(bar.durationMs)}</span>
              </li>
            ))}
          </ol>
        </section>
      ))}
    </div>
  );
}
