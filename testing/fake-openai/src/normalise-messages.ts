import type { NormalisedMessage, NormalisedToolCall } from './types';

type Json = Record<string, unknown>;
type AssistantMessage = { role: 'assistant'; content: string; toolCalls: NormalisedToolCall[] };
type Message = NormalisedMessage | AssistantMessage;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value);
}

/** Text of a message content: a string, or the text parts of an array (other parts as `[type]`). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return str(content);
  return content
    .map((part: unknown) => {
      if (!isRecord(part)) return str(part);
      if (typeof part.text === 'string') return part.text;
      if (typeof part.refusal === 'string') return part.refusal;
      return `[${str(part.type)}]`;
    })
    .join('\n');
}

function systemOrUser(role: unknown, content: unknown): NormalisedMessage | undefined {
  if (role === 'system' || role === 'developer') return { role: 'system', content: contentText(content) };
  if (role === 'user') return { role: 'user', content: contentText(content) };
  return undefined;
}

/** Normalises a Chat Completions `messages` array. */
export function normaliseChatMessages(messages: unknown): NormalisedMessage[] {
  if (!Array.isArray(messages)) return [];
  const out: NormalisedMessage[] = [];
  for (const message of messages) {
    if (!isRecord(message)) continue;
    const plain = systemOrUser(message.role, message.content);
    if (plain !== undefined) {
      out.push(plain);
    } else if (message.role === 'assistant') {
      const toolCalls = Array.isArray(message.tool_calls) ? message.tool_calls.filter(isRecord) : [];
      out.push({
        role: 'assistant',
        content: contentText(message.content),
        toolCalls: toolCalls.map((call) => {
          const fn = isRecord(call.function) ? call.function : {};
          return { id: str(call.id), name: str(fn.name), arguments: str(fn.arguments) };
        }),
      });
    } else if (message.role === 'tool') {
      out.push({ role: 'tool', toolCallId: str(message.tool_call_id), content: contentText(message.content) });
    }
  }
  return out;
}

/** Looks up an output item the server produced earlier, for Responses `item_reference` inputs. */
export type ItemLookup = (id: string) => Json | undefined;

/** Normalises a Responses API request: `instructions` plus the `input` string or item list. */
export function normaliseResponsesInput(body: Json, lookup: ItemLookup): NormalisedMessage[] {
  const out: Message[] = [];
  if (typeof body.instructions === 'string') out.push({ role: 'system', content: body.instructions });
  if (typeof body.input === 'string') {
    out.push({ role: 'user', content: body.input });
    return out;
  }
  if (!Array.isArray(body.input)) return out;

  const assistant = (): AssistantMessage => {
    const last = out.at(-1);
    if (last?.role === 'assistant') return last as AssistantMessage;
    const created: AssistantMessage = { role: 'assistant', content: '', toolCalls: [] };
    out.push(created);
    return created;
  };
  const addItem = (item: Json): void => {
    const type = item.type ?? 'message';
    if (type === 'item_reference') {
      const found = lookup(str(item.id));
      if (found !== undefined) addItem(found);
      return;
    }
    if (type === 'message') {
      const plain = systemOrUser(item.role, item.content);
      if (plain !== undefined) {
        out.push(plain);
      } else if (item.role === 'assistant') {
        const target = assistant();
        const text = contentText(item.content);
        target.content = target.content === '' ? text : `${target.content}\n${text}`;
      }
    } else if (type === 'function_call') {
      assistant().toolCalls.push({ id: str(item.call_id), name: str(item.name), arguments: str(item.arguments) });
    } else if (type === 'function_call_output') {
      out.push({ role: 'tool', toolCallId: str(item.call_id), content: contentText(item.output) });
    }
  };
  for (const item of body.input) if (isRecord(item)) addItem(item);
  return out;
}
