import { type AnyTool, defineTool, type JsonSchema, jsonSchema, type ToolEffects, type ToolPlacement, type ToolResolver } from '@edgetool/core';

/** The parts of a tool policy a UI shows and the browser chain needs. */
export interface PolicySummary {
  readonly effects: ToolEffects;
  readonly runsOn: ToolPlacement;
  /** `'conditional'` when a server-side function decides per call. */
  readonly needsApproval: boolean | 'conditional';
  readonly returnDirect: boolean;
  /** Quoted primitives (`"3"`) are coerced before validation (`policy.coerce`). */
  readonly coerce: boolean;
  /** A `null` for an optional argument that does not take `null` reads as absent (`policy.strict`). */
  readonly strict: boolean;
}

/** A server tool as `GET /api/tools` describes it. */
export interface ServerToolInfo {
  readonly name: string;
  readonly description: string;
  /** The input's JSON Schema, as the model sees it. */
  readonly jsonSchema: JsonSchema;
  readonly policy: PolicySummary;
}

const EFFECTS: readonly ToolEffects[] = ['read', 'write', 'destructive'];
const PLACEMENTS: readonly ToolPlacement[] = ['server', 'client', 'anywhere'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

/** The policy summary of a tool defined in this browser. */
export function summarizePolicy(tool: AnyTool): PolicySummary {
  const { effects, runsOn, needsApproval, returnDirect, coerce, strict } = tool.policy;
  return { effects, runsOn, needsApproval: typeof needsApproval === 'function' ? 'conditional' : needsApproval, returnDirect, coerce, strict };
}

/**
 * Reads a `GET /api/tools` body: a list, or `{ tools: [...] }`; the schema as `jsonSchema` or `inputSchema`.
 * A missing policy is read as a write that needs approval (the safe default: a human decides); a missing `coerce` or
 * `strict` as `false` (the arguments are validated as they are).
 */
export function parseServerTools(body: unknown): ServerToolInfo[] {
  const list = Array.isArray(body) ? body : isObject(body) && Array.isArray(body.tools) ? body.tools : [];
  const tools: ServerToolInfo[] = [];
  for (const item of list) {
    if (!isObject(item) || typeof item.name !== 'string') continue;
    const policy = isObject(item.policy) ? item.policy : {};
    const effects = oneOf(policy.effects, EFFECTS, 'write');
    const schema = isObject(item.jsonSchema) ? item.jsonSchema : isObject(item.inputSchema) ? item.inputSchema : { type: 'object' };
    const needsApproval = policy.needsApproval === 'conditional' || typeof policy.needsApproval === 'boolean' ? policy.needsApproval : effects !== 'read';
    tools.push({
      name: item.name,
      description: typeof item.description === 'string' ? item.description : '',
      jsonSchema: schema,
      policy: {
        effects,
        runsOn: oneOf(policy.runsOn, PLACEMENTS, 'server'),
        needsApproval,
        returnDirect: policy.returnDirect === true,
        coerce: policy.coerce === true,
        strict: policy.strict === true,
      },
    });
  }
  return tools;
}

/**
 * Whether the browser-side stand-in of a server tool asks a human before it authorises a call (manual mode): unless the
 * server says the tool never needs an approval. `conditional` asks (the rule only exists on the server), and so does a
 * tool the browser was not told about.
 */
export function authorisationAsks(policy: PolicySummary | undefined): boolean {
  return policy === undefined || policy.needsApproval !== false;
}

/** What the browser-side stand-in of a server tool returns: the call may run on the server. */
export const AUTHORISED: { readonly authorised: true } = Object.freeze({ authorised: true });

/**
 * The browser-side stand-in of a server tool (manual mode): the call passes through the browser's
 * chain like any tool, and its terminal only authorises the server to run it. Approval follows the
 * server's policy (`conditional` asks a human: the rule only exists on the server), and so do `coerce` and `strict`:
 * the stand-in reads the arguments as the server will (a quoted number coerced, a strict model's `null` left out).
 */
export function authorisationTool(info: Pick<ServerToolInfo, 'name' | 'description' | 'jsonSchema'> & { readonly policy?: PolicySummary | undefined }): AnyTool {
  const policy = info.policy;
  return defineTool({
    name: info.name,
    description: info.description,
    input: jsonSchema(info.jsonSchema),
    policy: {
      effects: policy?.effects ?? 'write',
      runsOn: 'anywhere',
      needsApproval: authorisationAsks(policy),
      coerce: policy?.coerce === true,
      strict: policy?.strict === true,
    },
    metadata: { edgetoolAuthorises: 'server' },
    execute: () => AUTHORISED,
  }) as AnyTool;
}

/**
 * Resolves the stand-ins of server tools by name. A server tool the browser was not told about
 * gets a stand-in that accepts any input and always asks a human.
 */
export function authorisationResolver(serverTools: readonly ServerToolInfo[]): ToolResolver {
  const known = new Map<string, AnyTool>(serverTools.map((info) => [info.name, authorisationTool(info)]));
  const names = [...known.keys()];
  return {
    kind: 'edgetool.resolver',
    names: () => names,
    resolve(name) {
      let tool = known.get(name);
      if (tool === undefined) {
        tool = authorisationTool({ name, description: 'A server tool this browser has no description of.', jsonSchema: {} });
        known.set(name, tool);
      }
      return tool;
    },
  };
}
