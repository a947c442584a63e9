import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { InterceptorLike, ToolContext, ToolInterceptor } from '../chain/types.ts';
import type { RateLimitPolicy } from '../interceptors/limits.ts';
import type { JsonSchema, ToolSchema } from '../schema/input-schema.ts';
import type { RunContext } from '../context/run-context.ts';
import type { ModelContent } from './model-content.ts';

/** What a tool does to the world. `write` and `destructive` need approval unless the policy says otherwise. */
export type ToolEffects = 'read' | 'write' | 'destructive';

/** Where a tool runs: on the server, in the client (browser), or wherever it is called. */
export type ToolPlacement = 'server' | 'client' | 'anywhere';

/** Decides per call whether a human must approve it. */
export type ApprovalRule<TInput = unknown> = boolean | ((input: TInput, ctx: ToolContext<TInput>) => boolean | Promise<boolean>);

/**
 * Words for the human asked to approve a call (`policy.approvalReason`): a fixed text, or one made per call from the
 * validated input and the call's context (it may read state: the order's customer, how late it would be).
 */
export type ApprovalReason<TInput = unknown, TDeps = unknown> =
  | string
  | ((input: TInput, ctx: ToolContext<TInput, TDeps>) => string | undefined | Promise<string | undefined>);

/**
 * A top-level argument name of a tool's input, as `policy.editable` lists it: the input's keys are suggested, and any
 * string is taken (a policy copied from another tool is a plain list), since `defineTool` checks each name against the
 * input's JSON Schema.
 */
export type EditableKey<TInput> = ([TInput] extends [object] ? Extract<keyof TInput, string> : never) | (string & {});

/** Whether a run may see and call a tool (`policy.available`, a registry's `available`): `true`, or a promise of it. */
export type AvailabilityCheck<TDeps = unknown> = (run: RunContext<TDeps>) => boolean | Promise<boolean>;

/** The per-tool policy, as written in `defineTool` (every field optional). */
export interface ToolPolicyInput<TInput = unknown, TDeps = unknown> {
  /** Default `'read'`. */
  readonly effects?: ToolEffects | undefined;
  /** Default `'server'`. */
  readonly runsOn?: ToolPlacement | undefined;
  /** Default: `true` for `write` and `destructive`, `false` for `read`. */
  readonly needsApproval?: ApprovalRule<TInput> | undefined;
  /**
   * Which arguments a human may change when approving a call (`ApprovalDecision.input`): `true` for any, a list of
   * top-level argument names, or `false` (the default) for none. The edited arguments are validated again and checked
   * by `check` before the call runs, and the model reads what the human changed before the result. Needs approvals:
   * not with `needsApproval: false`.
   */
  readonly editable?: boolean | readonly EditableKey<TInput>[] | undefined;
  /**
   * What the human who approves a call reads besides its arguments: what the call will do, worked out by the server
   * (`Order A-1006 of Margaret Hamilton moves from 2026-12-12 to 2027-01-05: 33 days late`), so the words on the
   * approval card come from the tool and not from the model. A function runs after `check`, only when a human is
   * asked; it reads and must not write, and a throw refuses the call as `check` does. The executor returns it as the
   * `approval-required` outcome's `reason`, and the chat loop as the AI SDK's approval `reason` (`useChat`'s
   * `part.approval.requestReason`). Needs approvals: not with `needsApproval: false`.
   */
  readonly approvalReason?: ApprovalReason<TInput, TDeps> | undefined;
  /** The tool's output is the answer: the loop ends without another model call. */
  readonly returnDirect?: boolean | undefined;
  /** Abort and fail with `timeout` after this many milliseconds. */
  readonly timeoutMs?: number | undefined;
  /** Extra attempts on retryable failures. Only for `read` tools: a retried write could apply twice. */
  readonly retries?: number | undefined;
  /** Calls in the same group run one at a time, even when the model asks for them in parallel. */
  readonly concurrency?: string | undefined;
  /** Lenient coercion of quoted primitives (`"3"` to 3, `"true"` to true) before validation. */
  readonly coerce?: boolean | undefined;
  /**
   * Offer the tool in OpenAI's strict mode (structured outputs for function calling), so the model's arguments always
   * match its schema: the chat loop and `toAISDKTools` send a strict rewrite of the schema (`toStrictJsonSchema`), or
   * the schema as it is, non-strict, when it has no strict form or is over OpenAI's size limits (with a one-time
   * warning). A `null` the model sends for an optional argument that does not accept `null` reads as absent
   * (`dropOptionalNulls`), wherever arguments are validated. Default `false`.
   */
  readonly strict?: boolean | undefined;
  /**
   * Checks that the call can succeed before anyone is asked to approve it (the order exists, the date is not in the
   * past). It reads and must not write. A throw refuses the call with that error (a `ToolError` keeps its code and
   * issues; anything else is `execution-failed`), and no human is asked: in the executor it runs right before the
   * approval, and the chat loop runs it before it asks.
   */
  readonly check?: ((input: TInput, ctx: ToolContext<TInput, TDeps>) => void | Promise<void>) | undefined;
  /**
   * At most this many calls of the tool run per run (one request, one chat turn); the rest fail with
   * `rate-limited`, without asking a human, and the model is told to answer with what it has. Calls that end
   * waiting for an approval do not count.
   */
  readonly maxCallsPerRun?: number | undefined;
  /**
   * A rate limit over time, per user by default (a Workers rate limit binding, `memoryRateLimiter()`, ...). Checked
   * after the approval: a call waiting for a human spends nothing.
   */
  readonly rateLimit?: RateLimitPolicy<TDeps> | undefined;
  /**
   * Whether this run may see and call the tool at all: a user's role or plan, a feature flag, a binding the deployment
   * may lack. A tool that is not available is left out of the tools the model is given (the chat loop, MCP `tools/list`),
   * and a call of it fails as `unknown-tool`, exactly like a tool that does not exist, so its name is never revealed.
   * Asked once per call and once per turn for the list; a throw or a rejection counts as `false` (fail closed).
   */
  readonly available?: AvailabilityCheck<TDeps> | undefined;
  /**
   * The most characters of one result (or failure) the model reads: a longer one keeps its start and its end around a
   * note that says how much was left out and to ask for less. One huge result (a page, a query over every row) would
   * otherwise fill the model's context window, and stay in every later request of the conversation. Default
   * `DEFAULT_MAX_CONTENT_CHARS` (100,000, about 25,000 tokens); at least 1,000; `Infinity` for no bound. Only what the
   * model reads is cut: the output the UI shows, the seal and the trace keep it whole.
   */
  readonly maxContentChars?: number | undefined;
}

/** The per-tool policy with defaults applied. Both execution modes and both tiers honour it. */
export interface ToolPolicy {
  readonly effects: ToolEffects;
  readonly runsOn: ToolPlacement;
  readonly needsApproval: ApprovalRule;
  /** Which arguments a human may edit when approving: all (`true`), these top-level names, or none (`false`). */
  readonly editable: boolean | readonly string[];
  /** What the human who approves a call reads besides its arguments (see `ToolPolicyInput.approvalReason`). */
  readonly approvalReason: ApprovalReason | undefined;
  readonly returnDirect: boolean;
  readonly timeoutMs: number | undefined;
  readonly retries: number;
  readonly concurrency: string | undefined;
  readonly coerce: boolean;
  /** Offered in OpenAI's strict mode; a `null` for an optional argument reads as absent (see `ToolPolicyInput.strict`). */
  readonly strict: boolean;
  readonly check: ((input: unknown, ctx: ToolContext) => void | Promise<void>) | undefined;
  readonly maxCallsPerRun: number | undefined;
  readonly rateLimit: RateLimitPolicy | undefined;
  readonly available: AvailabilityCheck | undefined;
  /** The most characters of one result the model reads (see `ToolPolicyInput.maxContentChars`). */
  readonly maxContentChars: number;
}

/** A tool: a plain tagged object made by `defineTool`. */
export interface Tool<TInput = unknown, TOutput = unknown, TDeps = unknown> {
  readonly kind: 'edgetool.tool';
  readonly name: string;
  readonly description: string;
  readonly input: ToolSchema<TInput>;
  readonly output: ToolSchema<TOutput> | undefined;
  readonly policy: ToolPolicy;
  readonly interceptors: readonly ToolInterceptor[];
  readonly metadata: Readonly<Record<string, unknown>>;
  /** The JSON Schema of the input, as the model sees it (derived once, on first use). */
  readonly jsonSchema: JsonSchema;
  /** Absent on a side that only describes the tool (for example a client tool on the server). */
  execute?(input: TInput, ctx: ToolContext<TInput, TDeps>): TOutput | Promise<TOutput>;
  /** Turns the output into what the model reads (default: strings as is, objects as JSON): text, or parts with images or documents. */
  toModelOutput?(output: TOutput, ctx: ToolContext<TInput, TDeps>): ModelContent;
}

/** Any tool, whatever its input, output and dependencies (every `Tool` is assignable to it). */
export type AnyTool = Tool<unknown, unknown, unknown>;

/** What `defineTool` takes. */
export interface ToolDefinition<TSchema extends StandardSchemaV1, TOutput, TDeps = unknown> {
  /** Unique in a registry; letters, digits, `_` and `-`, at most 64 characters (what providers accept). */
  readonly name: string;
  /** Tells the model when and how to use the tool. */
  readonly description: string;
  /** A valibot schema (or any Standard Schema, or `jsonSchema(...)` for raw JSON Schema). */
  readonly input: TSchema;
  /** Optional schema the output must satisfy (`invalid-output` otherwise). */
  readonly output?: ToolSchema<Awaited<TOutput>> | undefined;
  /** Overrides the JSON Schema derived from `input`. */
  readonly jsonSchema?: JsonSchema | undefined;
  readonly policy?: ToolPolicyInput<StandardSchemaV1.InferOutput<TSchema>, TDeps> | undefined;
  /**
   * This tool's interceptors: functions typed by this tool (input, output, deps), or named interceptors
   * shared with other tools (`defineInterceptor`, `timeout()`, `trace()`, ...).
   */
  readonly interceptors?: readonly (InterceptorLike<StandardSchemaV1.InferOutput<TSchema>, Awaited<TOutput>, TDeps> | ToolInterceptor)[] | undefined;
  readonly metadata?: Readonly<Record<string, unknown>> | undefined;
  readonly execute?: (input: StandardSchemaV1.InferOutput<TSchema>, ctx: ToolContext<StandardSchemaV1.InferOutput<TSchema>, TDeps>) => TOutput | Promise<TOutput>;
  /** What the model reads for a result (default: strings as is, objects as JSON): text, or parts with images (`imagePart`) or documents (`documentPart`). */
  readonly toModelOutput?: (output: Awaited<TOutput>, ctx: ToolContext<StandardSchemaV1.InferOutput<TSchema>, TDeps>) => ModelContent;
}

/** The deps a tool needs (`withDeps<Deps>()`): `unknown` for one that needs none. */
export type ToolDeps<TTool> = TTool extends Tool<infer _I, infer _O, infer TDeps> ? TDeps : never;

/** The deps a list of tools needs: every tool's, together (`unknown` when none needs any). */
export type ToolsDeps<TTools extends readonly AnyTool[]> =
  (TTools[number] extends infer T ? (T extends AnyTool ? (deps: ToolDeps<T>) => void : never) : never) extends (deps: infer D) => void ? D : never;

/** The input type of a tool. */
export type InferToolInput<T> = T extends Tool<infer I, infer _O, infer _D> ? I : never;
/** The output type of a tool. */
export type InferToolOutput<T> = T extends Tool<infer _I, infer O, infer _D> ? O : never;
