import type { SharedV4ProviderOptions } from '@ai-sdk/provider';
import {
  deriveJsonSchema,
  dropOptionalNulls,
  isJsonSchemaValidator,
  type JsonSchema,
  prototypeKeyIssues,
  type ToolIssue,
  toStrictJsonSchema,
  ToolError,
  validateWithSchema,
} from '@edgetool/core';
import type { OutputInterface } from 'ai';
import type { TurnOutputSchema } from './protocol.ts';

/**
 * A schema as a turn sends it: the JSON Schema the model answers (`json`, an object: see {@link wrapRoot}), the form
 * that goes out (strict when it has a strict form), and whether the answer is the schema's value under `value`.
 */
interface OutputPlan {
  readonly json: JsonSchema;
  readonly wire: JsonSchema;
  readonly strict: boolean;
  readonly wrapped: boolean;
}

/** The property a schema whose root is not an object is asked for under (`{ "value": [...] }`). */
const WRAPPER_KEY = 'value';

/**
 * A schema whose root is not an object (an array, an enum, a string, a union), as an object with one required property
 * that holds it: OpenAI refuses a response format whose root is not `type: "object"` (strict or not), as the AI SDK's
 * `Output.array` (`elements`) and `Output.choice` (`result`) know. Its `$defs` move to the new root, and a `$ref` to the
 * old root (`#`, a recursive schema) points to it there. `undefined` for an object root (a root `$ref` to one too).
 */
function wrapRoot(json: JsonSchema): JsonSchema | undefined {
  // A root `$ref` is read through to its definition (one that does not resolve here is left as it is).
  const target = json.$ref === undefined ? json : definitionOf(json, json.$ref);
  if (target === undefined || isObjectSchema(target)) return undefined;
  const { $defs, definitions, ...root } = json;
  // The definitions keep their key (`$defs`, or draft-07's `definitions`), so the `$ref`s to them still resolve.
  const key = $defs === undefined && definitions !== undefined ? 'definitions' : '$defs';
  const defs: Record<string, unknown> = { ...((key === '$defs' ? $defs : definitions) as Record<string, unknown> | undefined) };
  let inner: unknown = root;
  if (refersToRoot(root)) {
    let name = 'root';
    while (Object.hasOwn(defs, name)) name = `_${name}`;
    defs[name] = rewriteRootRefs(root, `#/${key}/${name}`);
    inner = { $ref: `#/${key}/${name}` };
  }
  return {
    type: 'object',
    properties: { [WRAPPER_KEY]: inner },
    required: [WRAPPER_KEY],
    additionalProperties: false,
    ...(Object.keys(defs).length === 0 ? {} : { [key]: defs }),
    // Both kinds of definitions are kept as they were.
    ...(key === '$defs' && definitions !== undefined ? { definitions } : {}),
  };
}

/** Whether a schema is of objects only (`type: "object"`). */
function isObjectSchema(schema: JsonSchema): boolean {
  const type = schema.type;
  return type === 'object' || (Array.isArray(type) && type.length === 1 && type[0] === 'object');
}

/** The definition a root `$ref` names (`#/$defs/name`, `#/definitions/name`), if the schema holds it. */
function definitionOf(json: JsonSchema, ref: unknown): JsonSchema | undefined {
  const match = typeof ref === 'string' ? /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref) : null;
  if (match === null) return undefined;
  const defs = json[match[1] as string];
  const name = (match[2] as string).replace(/~1/g, '/').replace(/~0/g, '~');
  if (typeof defs !== 'object' || defs === null || !Object.hasOwn(defs, name)) return undefined;
  const found: unknown = (defs as Record<string, unknown>)[name];
  return typeof found === 'object' && found !== null && !Array.isArray(found) ? (found as JsonSchema) : undefined;
}

/** Whether a schema refers to its own root (`$ref: "#"`) anywhere. */
function refersToRoot(node: unknown): boolean {
  if (typeof node !== 'object' || node === null) return false;
  if (Array.isArray(node)) return node.some(refersToRoot);
  return Object.entries(node).some(([key, value]) => (key === '$ref' ? value === '#' : refersToRoot(value)));
}

/** The schema with its `$ref: "#"` pointing to `to`. */
function rewriteRootRefs(node: unknown, to: string): unknown {
  if (typeof node !== 'object' || node === null) return node;
  if (Array.isArray(node)) return node.map((item) => rewriteRootRefs(item, to));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    Object.defineProperty(out, key, { value: key === '$ref' && value === '#' ? to : rewriteRootRefs(value, to), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

const plans = new WeakMap<TurnOutputSchema, OutputPlan>();

/** The JSON Schema of an output schema and its wire form, made once per schema (a bad schema throws a `TypeError`). */
function planOf(schema: TurnOutputSchema): OutputPlan {
  let plan = plans.get(schema);
  if (plan === undefined) {
    const own = isJsonSchemaValidator(schema) ? schema.jsonSchema : deriveJsonSchema(schema);
    const wrapper = wrapRoot(own);
    const json = wrapper ?? own;
    const wrapped = wrapper !== undefined;
    // OpenAI holds the answer to a strict schema (every property required, optional ones nullable), which
    // `toStrictJsonSchema` writes as a strict tool's; a schema with no strict form goes out as it is, non-strict.
    const made = toStrictJsonSchema(json);
    plan = made.strict ? { json, wire: made.schema, strict: true, wrapped } : { json, wire: json, strict: false, wrapped };
    plans.set(schema, plan);
  }
  return plan;
}

/** One turn's structured output: the AI SDK `output` for `generateText`, and the answer text it saw. */
export interface TurnOutput {
  /**
   * The AI SDK's `output` option: it asks the model for the schema (`responseFormat`, which `@ai-sdk/openai` sends as
   * `response_format`/`text.format`) and hands back the final answer's text as it is. The answer is checked by
   * {@link TurnOutput.parse}, not here: the AI SDK's own `Output.object` throws an untyped error out of `generateText`,
   * and the turn's messages and usage would go with it.
   */
  readonly output: OutputInterface<string, string, never>;
  /** Provider options the schema needs: `strictJsonSchema: false` for OpenAI when it has no strict form. */
  readonly providerOptions: SharedV4ProviderOptions | undefined;
  /** The final answer's text as the AI SDK read it for the output (a provider may carry it apart from the text). */
  readonly text: () => string | undefined;
  /**
   * The answer checked: the schema's value, or an `invalid-output` {@link ToolError} with the issues (`json`: it was
   * JSON). `finishReason`: the final step's, so an answer cut off at the output token limit says so.
   */
  parse(text: string, finishReason?: string): Promise<{ ok: true; value: unknown } | { ok: false; error: ToolError; json: boolean }>;
  /** The words that ask the model, once, for an answer that fits (see `generateTextTurn`'s `output`). */
  repairPrompt(error: ToolError): string;
}

/** The structured output of one turn for `schema` (each turn its own: it records the answer it saw). */
export function turnOutput(schema: TurnOutputSchema): TurnOutput {
  const plan = planOf(schema);
  let seen: string | undefined;
  return {
    output: {
      name: 'object',
      responseFormat: Promise.resolve({ type: 'json', schema: plan.wire as never }),
      parseCompleteOutput: async ({ text }) => {
        seen = text;
        return text;
      },
      parsePartialOutput: async () => undefined,
      createElementStreamTransform: () => undefined,
    },
    providerOptions: plan.strict ? undefined : { openai: { strictJsonSchema: false } },
    text: () => seen,
    parse: async (text, finishReason) => {
      let value: unknown;
      try {
        value = JSON.parse(unfenced(text));
      } catch (cause) {
        const issues: ToolIssue[] = [{ path: '(root)', message: cause instanceof Error ? cause.message : 'not valid JSON' }];
        // Cut off at `maxOutputTokens`: the caller's fix is a larger limit, the model's a shorter answer.
        const message =
          finishReason === 'length'
            ? 'The answer was cut off at the output token limit before its JSON was complete.'
            : text.trim() === ''
              ? 'The answer was empty, not JSON.'
              : 'The answer was not valid JSON.';
        return { ok: false, json: false, error: invalidOutput(message, issues, cause) };
      }
      // Keys that could change an object's prototype are refused, as in a tool's arguments.
      const keys = prototypeKeyIssues(value);
      if (keys.length > 0) return { ok: false, json: true, error: invalidOutput('The answer has a key that is not accepted.', keys) };
      // A strict schema's `null` for an optional property means absent, as a strict tool's arguments are read.
      const fitted = plan.strict ? dropOptionalNulls(value, plan.json) : value;
      try {
        const checked = await validateWithSchema(schema, plan.wrapped ? unwrap(fitted) : fitted);
        return checked.ok ? { ok: true, value: checked.value } : { ok: false, json: true, error: invalidOutput('The answer does not match the output schema.', checked.issues) };
      } catch (cause) {
        // A schema that throws while it validates: no value, and no untyped error out of the turn.
        return { ok: false, json: true, error: new ToolError('invalid-output', `The answer could not be validated: ${cause instanceof Error ? cause.message : String(cause)}`, { cause, unexpected: true }) };
      }
    },
    repairPrompt: (error) =>
      [
        `Your last answer cannot be used: ${error.message}`,
        ...(error.issues ?? []).map((issue) => `- ${issue.path}: ${issue.message}`),
        `Answer again with only a JSON value that matches this JSON Schema, and no other text: ${JSON.stringify(plan.json)}`,
      ].join('\n'),
  };
}

/** A whole answer in one Markdown code fence (```json ... ```, as a model without JSON mode writes it): its inside. */
const FENCE = /^\s*```[\w-]*[^\S\n]*\n([\s\S]*?)\n[^\S\n]*```\s*$/;

/** The answer's text without the one code fence around all of it, if it has one; otherwise the text as it is. */
function unfenced(text: string): string {
  const inside = FENCE.exec(text)?.[1];
  return inside === undefined || inside.includes('```') ? text : inside;
}

/**
 * The schema's value in an answer to a wrapped schema: its `value`. A model not held to the format may answer the bare
 * value, which is checked as it is.
 */
function unwrap(answer: unknown): unknown {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return answer;
  const keys = Object.keys(answer);
  return keys.length === 1 && keys[0] === WRAPPER_KEY ? (answer as Record<string, unknown>)[WRAPPER_KEY] : answer;
}

function invalidOutput(message: string, issues: readonly ToolIssue[], cause?: unknown): ToolError {
  return new ToolError('invalid-output', message, { issues, ...(cause === undefined ? {} : { cause }) });
}

/** Provider options of a turn: the settings' own, and the output's under them (per provider, the settings win). */
export function withOutputOptions(settings: SharedV4ProviderOptions | undefined, output: SharedV4ProviderOptions | undefined): SharedV4ProviderOptions | undefined {
  if (output === undefined) return settings;
  if (settings === undefined) return output;
  const merged: Record<string, SharedV4ProviderOptions[string]> = { ...output };
  for (const [provider, options] of Object.entries(settings)) merged[provider] = { ...output[provider], ...options };
  return merged;
}
