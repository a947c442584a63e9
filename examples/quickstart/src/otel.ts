import { createExecutor, createRunContext, defineTool } from '@edgetool/core';
import { createOtlpExporter, type OtlpTraceRequest, setTraceparent } from '@edgetool/core/otel';
import * as v from 'valibot';

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  input: v.object({ city: v.string() }),
  execute: ({ city }) => ({ city, celsius: 21 }),
});

// A stand-in collector that prints each span and its parent. In your app, drop `fetch`: the exporter POSTs to `url`.
const collector = async (_url: string, init: RequestInit) => {
  const spans = (JSON.parse(String(init.body)) as OtlpTraceRequest).resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
  const names = new Map(spans.map((span) => [span.spanId, span.name]));
  for (const span of spans) console.log(`${span.name} ← ${names.get(span.parentSpanId ?? '') ?? span.parentSpanId}`);
  return new Response('{}');
};
const exporter = createOtlpExporter({ url: 'https://otlp.example.com/v1/traces', serviceName: 'weather', fetch: collector });
const executor = createExecutor({ registry: [getWeather], onTrace: exporter.export });

// One request's run: its calls join the caller's trace. In a Worker: setTraceparent(run, request.headers.get('traceparent')).
const run = createRunContext({ conversationId: 'conv-1' });
setTraceparent(run, '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
await executor.execute({ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }, { run });

// In a Worker: ctx.waitUntil(exporter.flush()) once the turn is over. It never rejects; failures go to `onError`.
console.log(JSON.stringify(await exporter.flush()));
