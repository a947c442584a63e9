import type { StandardSchemaV1 } from '@standard-schema/spec';
import { toInterceptor } from '../chain/interceptor.ts';
import type { ToolInterceptor } from '../chain/types.ts';
import { checkLimiter, checkMaxCalls } from '../interceptors/limits.ts';
import { isTimerDelay, MAX_TIMER_MS } from '../interceptors/timer-delay.ts';
import { deriveJsonSchema, type JsonSchema } from '../schema/input-schema.ts';
import { isJsonSchemaValidator } from '../schema/json-schema.ts';
import { DEFAULT_MAX_CONTENT_CHARS, MIN_MAX_CONTENT_CHARS } from './content-bound.ts';
import { isToolName } from './tool-name.ts';
import type { ApprovalRule, AnyTool, Tool, ToolDefinition, ToolPolicy, ToolPolicyInput } from './types.ts';

const EFFECTS: readonly unknown[] = ['read', 'write', 'destructive'];
const PLACEMENTS: readonly unknown[] = ['server', 'client', 'anywhere'];

/** Applies the defaults to a policy and rejects combinations that are unsafe. */
export function resolvePolicy(name: string, input: ToolPolicyInput<never, never> = {}): ToolPolicy {
  const effects = input.effects ?? 'read';
  // Untyped code and policies read from config: a typo ('Write', 'browser') must not pass for another value.
  if (!EFFECTS.includes(effects)) throw new TypeError(`Tool "${name}": effects must be 'read', 'write' or 'destructive'; got ${JSON.stringify(effects)}.`);
  if (input.runsOn !== undefined && !PLACEMENTS.includes(input.runsOn)) {
    throw new TypeError(`Tool "${name}": runsOn must be 'server', 'client' or 'anywhere'; got ${JSON.stringify(input.runsOn)}.`);
  }
  const rule: unknown = input.needsApproval;
  if (rule !== undefined && typeof rule !== 'boolean' && typeof rule !== 'function') throw new TypeError(`Tool "${name}": needsApproval must be a boolean or a function (input, ctx) => boolean.`);
  for (const key of ['returnDirect', 'coerce', 'strict'] as const) {
    if (input[key] !== undefined && typeof input[key] !== 'boolean') throw new TypeError(`Tool "${name}": ${key} must be true or false.`);
  }
  if (input.concurrency !== undefined && typeof input.concurrency !== 'string') throw new TypeError(`Tool "${name}": concurrency must be the name of a group (a string).`);
  const retries = input.retries ?? 0;
  if (!Number.isInteger(retries) || retries < 0) throw new TypeError(`Tool "${name}": retries must be a non-negative integer.`);
  if (retries > 0 && effects !== 'read') {
    throw new TypeError(`Tool "${name}": retries are only allowed for read tools (a retried ${effects} could apply twice).`);
  }
  // Infinity is none, as for the other time limits; a finite delay past a timer's 32 bits would fire at once.
  const timeoutMs = input.timeoutMs === Number.POSITIVE_INFINITY ? undefined : input.timeoutMs;
  if (timeoutMs !== undefined && !isTimerDelay(timeoutMs)) {
    throw new TypeError(`Tool "${name}": timeoutMs must be a number of milliseconds from 1 to ${MAX_TIMER_MS}, or Infinity for none; got ${String(timeoutMs)}.`);
  }
  const { maxCallsPerRun, rateLimit, check, available } = input;
  if (check !== undefined && typeof check !== 'function') throw new TypeError(`Tool "${name}": check must be a function (input, ctx) => void.`);
  if (available !== undefined && typeof available !== 'function') throw new TypeError(`Tool "${name}": available must be a function (run) => boolean.`);
  const editable = input.editable ?? false;
  const needsApproval = (input.needsApproval as ApprovalRule | undefined) ?? effects !== 'read';
  if (typeof editable !== 'boolean' && !(Array.isArray(editable) && editable.length > 0 && editable.every((key) => typeof key === 'string'))) {
    throw new TypeError(`Tool "${name}": editable must be true, false or a non-empty list of argument names.`);
  }
  if (editable !== false && needsApproval === false) throw new TypeError(`Tool "${name}": editable arguments are edited when a human approves, so it needs approvals (needsApproval is false).`);
  const { approvalReason } = input;
  if (approvalReason !== undefined && typeof approvalReason !== 'string' && typeof approvalReason !== 'function') {
    throw new TypeError(`Tool "${name}": approvalReason must be a string or a function (input, ctx) => string.`);
  }
  if (approvalReason !== undefined && needsApproval === false) throw new TypeError(`Tool "${name}": approvalReason is read when a human approves, so it needs approvals (needsApproval is false).`);
  if (maxCallsPerRun !== undefined) checkMaxCalls(maxCallsPerRun, `Tool "${name}": maxCallsPerRun`);
  if (rateLimit !== undefined) checkLimiter(rateLimit.limiter, `Tool "${name}": rateLimit.limiter`);
  const maxContentChars = input.maxContentChars ?? DEFAULT_MAX_CONTENT_CHARS;
  if (!(maxContentChars === Number.POSITIVE_INFINITY || (Number.isSafeInteger(maxContentChars) && maxContentChars >= MIN_MAX_CONTENT_CHARS))) {
    throw new TypeError(
      `Tool "${name}": maxContentChars must be a whole number of characters from ${MIN_MAX_CONTENT_CHARS}, or Infinity for no bound; got ${String(maxContentChars)}.`,
    );
  }
  return {
    effects,
    runsOn: input.runsOn ?? 'server',
    needsApproval,
    editable: Array.isArray(editable) ? Object.freeze([...editable]) : editable,
    approvalReason: approvalReason as ToolPolicy['approvalReason'],
    returnDirect: input.returnDirect ?? false,
    timeoutMs,
    retries,
    concurrency: input.concurrency,
    coerce: input.coerce ?? false,
    strict: input.strict ?? false,
    check: check as ToolPolicy['check'],
    maxCallsPerRun,
    rateLimit: rateLimit as ToolPolicy['rateLimit'],
    available: available as ToolPolicy['available'],
    maxContentChars,
  };
}

/** What a tool's lazy `jsonSchema` is made from, and the schema once made. */
interface SchemaSource {
  readonly input: StandardSchemaV1;
  json: JsonSchema | undefined;
}

const SCHEMA_SOURCE = Symbol('edgetool.schemaSource');

/**
 * The `jsonSchema` of every tool: derived on first read, then kept. One getter shared by all tools: a getter made per
 * tool (a closure) gave each tool a map of its own, and V8 then keeps such objects in slow dictionary mode, which made
 * every read of a tool's fields on the executor's path a hash lookup.
 */
const LAZY_JSON_SCHEMA: PropertyDescriptor = {
  get(this: { readonly [SCHEMA_SOURCE]: SchemaSource }): JsonSchema {
    const source = this[SCHEMA_SOURCE];
    source.json ??= isJsonSchemaValidator(source.input) ? source.input.jsonSchema : deriveJsonSchema(source.input);
    return source.json;
  },
  enumerable: true,
  configurable: true,
};

/**
 * Defines a tool: a name, a description, a schema for its input, a policy and `execute`.
 * The input type of `execute` is inferred from the schema. Returns a plain tagged object.
 */
/* @__NO_SIDE_EFFECTS__ */
export function defineTool<const TSchema extends StandardSchemaV1, TOutput, TDeps = unknown>(
  definition: ToolDefinition<TSchema, TOutput, TDeps>,
): Tool<StandardSchemaV1.InferOutput<TSchema>, Awaited<TOutput>, TDeps> {
  const { name, description, input } = definition;
  if (!isToolName(name)) {
    throw new TypeError(`Invalid tool name ${JSON.stringify(name)}: use 1-64 letters, digits, "_" or "-".`);
  }
  if (typeof input !== 'object' || input === null || !('~standard' in input)) {
    throw new TypeError(`Tool "${name}": input must be a valibot schema, a Standard Schema or jsonSchema(...).`);
  }
  const tool = {
    kind: 'edgetool.tool' as const,
    name,
    description,
    input: input as StandardSchemaV1<unknown, StandardSchemaV1.InferOutput<TSchema>>,
    output: definition.output,
    policy: resolvePolicy(name, definition.policy as ToolPolicyInput<never, never> | undefined),
    interceptors: (definition.interceptors ?? []).map((i) => toInterceptor(i as never)) as readonly ToolInterceptor[],
    metadata: definition.metadata ?? {},
  };
  // One getter for every tool, its state in a hidden slot that copies of the tool share (copyTool copies descriptors).
  Object.defineProperty(tool, SCHEMA_SOURCE, { value: { input, json: definition.jsonSchema } satisfies SchemaSource });
  Object.defineProperty(tool, 'jsonSchema', LAZY_JSON_SCHEMA);
  if (definition.execute) Object.assign(tool, { execute: definition.execute });
  if (definition.toModelOutput) Object.assign(tool, { toModelOutput: definition.toModelOutput });
  if (Array.isArray(tool.policy.editable)) checkEditableNames(name, tool.policy.editable, (tool as unknown as AnyTool).jsonSchema);
  return tool as unknown as Tool<StandardSchemaV1.InferOutput<TSchema>, Awaited<TOutput>, TDeps>;
}

/** A typo in `policy.editable` fails here, at start-up, rather than as a refused edit on a user's first approval. */
function checkEditableNames(name: string, editable: readonly string[], schema: JsonSchema): void {
  const properties = schema.properties;
  // An input that is not a plain object schema (a union, `$ref`s): its names cannot be checked here.
  if (typeof properties !== 'object' || properties === null) return;
  const unknown = editable.filter((key) => !Object.hasOwn(properties, key));
  if (unknown.length > 0) {
    throw new TypeError(`Tool "${name}": editable names arguments its input does not have (${unknown.join(', ')}); it has ${Object.keys(properties).join(', ') || 'none'}.`);
  }
}

/**
 * True for tools made by `defineTool` (or `scanTools`): the tag, a policy and interceptors, so that a resolver's bare
 * `{ kind, name }` is refused where it is handed out (as the call's failure) instead of crashing the executor.
 */
export function isTool(value: unknown): value is AnyTool {
  const tool = value as AnyTool | null;
  return typeof tool === 'object' && tool?.kind === 'edgetool.tool' && typeof tool.policy?.effects === 'string' && Array.isArray(tool.interceptors);
}

/**
 * Binds the dependency type once, so every tool's `ctx.run.deps` is typed without annotations:
 * `const { defineTool } = withDeps<{ db: D1Database }>()`.
 */
export function withDeps<TDeps>(): {
  defineTool: <const TSchema extends StandardSchemaV1, TOutput>(
    definition: ToolDefinition<TSchema, TOutput, TDeps>,
  ) => Tool<StandardSchemaV1.InferOutput<TSchema>, Awaited<TOutput>, TDeps>;
} {
  return { defineTool };
}
