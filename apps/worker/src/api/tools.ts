import { type AnyTool, availableTools, createRunContext, type JsonSchema, type RunContext, type ToolEffects, type ToolPlacement, type ToolRegistry } from '@edgetool/core';
import { json } from '../http/index.ts';
import { createDemoRegistry } from '../tools/index.ts';

/** One tool as `GET /api/tools` lists it. */
export interface ToolDescription {
  readonly name: string;
  readonly description: string;
  /** The input's JSON Schema, exactly what the model sees. */
  readonly inputSchema: JsonSchema;
  readonly policy: {
    readonly effects: ToolEffects;
    readonly runsOn: ToolPlacement;
    /** `'conditional'` when a function decides per call. */
    readonly needsApproval: boolean | 'conditional';
    readonly returnDirect: boolean;
    readonly timeoutMs?: number;
    readonly retries: number;
    readonly concurrency?: string;
    readonly maxCallsPerRun?: number;
    /** The tool spends a rate limit (its limiter and key are server-side). */
    readonly rateLimited: boolean;
    /**
     * Quoted primitives are coerced before validation (`policy.coerce`): a client that checks the arguments first (the
     * browser's stand-in in manual mode) reads them the same way.
     */
    readonly coerce: boolean;
    /** A `null` for an optional argument reads as absent (`policy.strict`), for such a client too. */
    readonly strict: boolean;
  };
}

/** A serialisable description of a tool (name, description, JSON Schema, policy). */
export function describeTool(tool: AnyTool): ToolDescription {
  const { effects, runsOn, needsApproval, returnDirect, timeoutMs, retries, concurrency, maxCallsPerRun, rateLimit, coerce, strict } = tool.policy;
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.jsonSchema,
    policy: {
      effects,
      runsOn,
      needsApproval: typeof needsApproval === 'function' ? 'conditional' : needsApproval,
      returnDirect,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      retries,
      ...(concurrency === undefined ? {} : { concurrency }),
      ...(maxCallsPerRun === undefined ? {} : { maxCallsPerRun }),
      rateLimited: rateLimit !== undefined,
      coerce,
      strict,
    },
  };
}

/**
 * `GET /api/tools`: the server tools with their schemas and policies (the UI and docs read it): those `run` may see
 * (`policy.available`), as the chat loop gives them to the model.
 */
export async function listTools(registry: ToolRegistry = createDemoRegistry(), run: RunContext = createRunContext()): Promise<Response> {
  const tools = await availableTools(await registry.tools(), run);
  return json({ tools: tools.map(describeTool) });
}
