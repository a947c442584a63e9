import { createExecutor, createRunContext } from '@edgetool/core';
import { createMcpHandler } from '@edgetool/core/mcp';
import { setTraceparent } from '@edgetool/core/otel';
import type { Env } from '../env.ts';
import { demoDeps, demoTools } from '../tools/index.ts';
import { demoTracing } from '../tracing.ts';

const handlers = new WeakMap<Env, (request: Request) => Promise<Response>>();

/**
 * `POST /api/mcp`: the demo's server tools for MCP clients (Streamable HTTP, stateless). The same tools, schemas, chain
 * and typed errors as the chat loop, over the same D1. Tools that always need a human approval (the two writes) are not
 * offered: an MCP client has no ticket to bring back. One handler per isolate and `env`; a run context per request.
 * With OTLP export on, each call is a span (as a chat turn's calls are) under the request's `traceparent`, sent once
 * the answer is out (`ctx.waitUntil`; a streamed call's when its stream ends).
 */
export async function mcp(request: Request, env: Env, ctx?: ExecutionContext): Promise<Response> {
  const tracing = demoTracing(env);
  let handle = handlers.get(env);
  if (handle === undefined) {
    handle = createMcpHandler({
      // The chat agent's exporter (one per `env`): its `onTrace` records each call once it ends.
      tools: tracing === undefined ? demoTools : createExecutor({ registry: [...demoTools], onTrace: tracing.onTrace }),
      name: 'edgetool-demo',
      version: '0.1.0',
      instructions: "Tools of a demo shop: look up orders, list or audit the late ones, chart them, make an order's invoice as a PDF, a world clock, arithmetic.",
      run: (incoming) => {
        const run = createRunContext({ conversationId: `mcp-${crypto.randomUUID()}`, deps: demoDeps(env), signal: incoming.signal });
        if (tracing !== undefined) setTraceparent(run, incoming.headers.get('traceparent'));
        return run;
      },
    });
    handlers.set(env, handle);
  }
  const response = await handle(request);
  if (tracing === undefined || ctx === undefined) return response;
  // A JSON answer comes once its calls have ended. A streamed call (its progress) ends with its stream: the body is
  // passed through, and the flush waits for its end, however it ends.
  if (response.body === null || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    ctx.waitUntil(tracing.exporter.flush());
    return response;
  }
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  ctx.waitUntil(response.body.pipeTo(writable).then(tracing.exporter.flush, tracing.exporter.flush));
  return new Response(readable, response);
}
