import { type ChatAgent, createChatAgent, createModelFromEnv, type ModelChoice, agentTool } from '@edgetool/ai';
import { createRegistry, createTicketSigner, type TicketKey, type TicketSigner } from '@edgetool/core';
import type { Env } from './env.ts';
import { ConfigurationError } from './http/index.ts';
import { createD1CallResultStore } from './call-result-store.ts';
import { createD1NonceStore } from './nonce-store.ts';
import { type DemoTracing, demoTracing } from './tracing.ts';
import { browserToolDeclarations } from '@edgetool/web/tool-declarations';
import { type DemoDeps, demoTools, listDelayedOrders, queryOrder } from './tools/index.ts';

const INSTRUCTIONS = `You are the order desk of a small shop. Use the tools to look up orders, find delayed ones,
change delivery dates and email customers (changes and emails need the user's approval), tell the time in a time zone,
calculate, and use the user's browser for their time zone, a date picker and their cart. Be brief and concrete.`;

/** The offline model streams slowly enough to press "stop" when OFFLINE_DELAY_MS is set (the e2e tests do): at most 2 s. */
export function offlineDelay(env: Env): number {
  const ms = Number(env.OFFLINE_DELAY_MS ?? 0);
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, 2000) : 0;
}

/**
 * The model this Worker uses: OpenAI when OPENAI_API_KEY is set, else the offline model. A configuration that names no
 * model (`OPENAI_BASE_URL` without a key) is a {@link ConfigurationError}: chat, health and tools answer 500 `not-configured`
 * (`/api/mcp` uses no model).
 * `now` is the offline model's clock for "tomorrow" or "next Monday": the tools' (`DemoDeps.now`), `new Date()` by default.
 */
export function chooseModel(env: Env, now?: () => Date): ModelChoice {
  try {
    return createModelFromEnv(env, { offline: { delayMs: offlineDelay(env), ...(now === undefined ? {} : { now }) } });
  } catch (error) {
    if (error instanceof TypeError) throw new ConfigurationError(error.message, { cause: error });
    throw error;
  }
}

/** Ticket keys from secrets: TICKET_SECRET signs, TICKET_SECRET_PREVIOUS still verifies (rotation). */
export function ticketKeys(env: Env): TicketKey[] {
  if (!env.TICKET_SECRET) throw new MissingSecretError();
  const keys: TicketKey[] = [{ id: 'current', secret: env.TICKET_SECRET }];
  if (env.TICKET_SECRET_PREVIOUS) keys.push({ id: 'previous', secret: env.TICKET_SECRET_PREVIOUS });
  return keys;
}

/** TICKET_SECRET is not configured: the chat cannot issue or check tickets (500 `not-configured`). */
export class MissingSecretError extends ConfigurationError {
  constructor() {
    super('TICKET_SECRET is not set: add it to apps/worker/.dev.vars (npm start does) or `wrangler secret put TICKET_SECRET`.');
    this.name = 'MissingSecretError';
  }
}

/** The demo's token budget per chat turn on a real model when `TURN_TOKEN_BUDGET` is unset. */
export const DEFAULT_TURN_TOKEN_BUDGET = 50_000;

/** The delay analyst's own budget per call on a real model (what it uses counts against the chat turn's too). */
export const ANALYST_TOKEN_BUDGET = 20_000;

/**
 * The most tokens one chat turn may use: `TURN_TOKEN_BUDGET` on any model; unset, {@link DEFAULT_TURN_TOKEN_BUDGET} on
 * a real model and none on the offline model, which costs nothing (the default refused its long conversations, on an
 * estimate of tokens nobody pays for). A set value applies to the offline model too, to show the limit without a key.
 */
export function turnTokenBudget(env: Env, model: Pick<ModelChoice, 'offline'>): number | undefined {
  const text = env.TURN_TOKEN_BUDGET?.trim();
  if (text === undefined || text === '') return model.offline ? undefined : DEFAULT_TURN_TOKEN_BUDGET;
  const budget = Number(text);
  if (!Number.isSafeInteger(budget) || budget <= 0) throw new ConfigurationError(`TURN_TOKEN_BUDGET must be a positive whole number of tokens, not "${text}".`);
  return budget;
}

/** Single-use tickets across isolates: nonces live in D1. `now` is the clock of both (default `Date.now`). */
export function createTickets(env: Env, now: () => number = Date.now): TicketSigner {
  return createTicketSigner({ keys: ticketKeys(env), nonceStore: createD1NonceStore(env.DB, { now }), now });
}

/**
 * Every tool the model sees: the D1 tools, one agent-as-tool (a delay analyst that reads orders on a
 * forked run and reports back) and the browser tools. With `tracing`, the analyst's calls are exported too.
 */
export async function createDemoTools(model: ModelChoice, tickets: TicketSigner, tracing?: DemoTracing) {
  const analyst = createChatAgent({
    model: model.model,
    tools: [listDelayedOrders, queryOrder],
    instructions: 'You analyse delivery delays. List the delayed orders and summarise them in two sentences.',
    tickets,
    maxSteps: 4,
    // Its own turn's bound on a real model; what it uses counts against the chat turn's budget too, which stops it once
    // used up. The offline model costs nothing: no bound of its own.
    ...(model.offline ? {} : { tokenBudget: ANALYST_TOKEN_BUDGET }),
    toolErrorMessage: 'hide-unexpected',
    // The default, said out loud: a file part must carry its bytes (a data: URL). Any other URL the AI SDK would fetch
    // here (the offline model takes none): a host the client names, up to 2 GiB. /api/chat answers 400 file-url-refused.
    fileUrls: 'refuse',
    ...(tracing === undefined ? {} : { onTrace: tracing.onTrace }),
  });
  const delayAnalyst = await agentTool({
    name: 'delay_analyst',
    description: 'A sub-agent that reviews delayed orders and writes a short report. Give it the task in plain words.',
    agent: analyst,
    // Its whole turn, the model's answers included: a hung model fails the call instead of the chat turn.
    timeoutMs: 120_000,
  });
  return [...demoTools, delayAnalyst, ...browserToolDeclarations] as const;
}

/** Agents built for an `env` (one per isolate in practice): the signer keeps its imported keys, tools their schemas. */
const agents = new WeakMap<Env, Promise<{ agent: ChatAgent<DemoDeps>; model: ModelChoice }>>();

/**
 * The demo agent for this Worker's bindings, built on first use and shared by the requests of the
 * isolate: an agent holds no per-request state (that lives in the run context), and building it
 * imports the ticket keys and wraps every tool. A failed build (a missing secret) is not cached.
 */
export function demoAgent(env: Env): Promise<{ agent: ChatAgent<DemoDeps>; model: ModelChoice }> {
  let agent = agents.get(env);
  if (agent === undefined) {
    agent = createDemoAgent(env);
    agents.set(env, agent);
    agent.catch(() => agents.delete(env));
  }
  return agent;
}

/**
 * Builds the demo agent: plain objects, no I/O. `now` is its clock (a test clock; default `Date.now`): the tickets'
 * and the offline model's, which reads "tomorrow" by it. With `OTEL_EXPORTER_OTLP_ENDPOINT` set, its calls (the
 * analyst's too) are traced and exported (`demoTracing`).
 */
export async function createDemoAgent(env: Env, options: { readonly now?: () => number } = {}): Promise<{ agent: ChatAgent<DemoDeps>; model: ModelChoice }> {
  const { now } = options;
  const model = chooseModel(env, now === undefined ? undefined : () => new Date(now()));
  const tickets = createTickets(env, options.now);
  const tracing = demoTracing(env);
  const tokenBudget = turnTokenBudget(env, model);
  const tools = await createDemoTools(model, tickets, tracing);
  const agent = createChatAgent({
    model: model.model,
    tools: createRegistry({ tools }),
    instructions: INSTRUCTIONS,
    tickets,
    maxSteps: 8,
    // A turn that reaches it (the analyst's tokens included) starts no other model step and says so. None by default on
    // the offline model (see turnTokenBudget).
    ...(tokenBudget === undefined ? {} : { tokenBudget }),
    // Results of approved calls in D1, like the nonces: an answer lost on the way can be asked for again from any isolate.
    callResults: createD1CallResultStore(env.DB),
    // A chart or an invoice reaches the model as a file in the turn that made it and the next one; later turns send
    // its line of text instead of the bytes again.
    toolFileTurns: 2,
    // What a tool throws by mistake (a D1 error naming a table) reaches neither the model nor the browser: they read
    // "The tool failed unexpectedly (reference <call id>)", and the Worker's log has the error. The tools' own
    // ToolErrors (no such order, a date in the past) still reach the model as written, so it can correct itself.
    toolErrorMessage: 'hide-unexpected',
    ...(tracing === undefined ? {} : { onTrace: tracing.onTrace }),
  });
  return { agent, model };
}
