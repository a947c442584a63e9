import type { EdgetoolUIMessage } from '@edgetool/ai';
import type { JsonSchema } from '@edgetool/core';
import type { ToolCallView, UserQuestion } from '@edgetool/react';
import { type ReactElement, useId } from 'react';
import type { FailedRequest } from '../lib/chat-storage.ts';
import { formatUsage, limitNote } from '../lib/format.ts';
import type { DateQuestion } from '../tools/browser-tools.ts';
import { Thinking } from './thinking.tsx';
import { ToolCard, type ToolCardActions } from './tool-card.tsx';

type Part = EdgetoolUIMessage['parts'][number];

function isToolPart(part: Part): part is Part & { toolCallId: string } {
  return (part.type.startsWith('tool-') || part.type === 'dynamic-tool') && 'toolCallId' in part;
}

/** The tool a tool part names (`tool-<name>`, or a dynamic tool's own field). */
function toolNameOfPart(part: Part & { toolCallId: string }): string {
  const named = (part as { toolName?: unknown }).toolName;
  return part.type === 'dynamic-tool' && typeof named === 'string' ? named : part.type.slice('tool-'.length);
}

/**
 * A part with the id of a call shown above (a hostile or buggy server repeats it; ours never does): no call of its own.
 * It never runs (`planBrowserWork`), and its card says so, in place of a second card of the call it repeats.
 */
function RepeatedCall({ toolCallId, toolName }: { readonly toolCallId: string; readonly toolName: string }): ReactElement {
  return (
    <article
      className="tool-card tone-bad"
      data-testid="tool-card-repeated"
      data-tool-name={toolName}
      data-tool-call-id={toolCallId}
      aria-label={`${toolName} not run`}
    >
      <header className="tool-head">
        <code className="tool-name">{toolName}</code>
        <span className="spacer" />
        <span className="status-pill status-bad">not run</span>
      </header>
      <p className="tool-note" data-testid="tool-repeated">
        Not run: the server sent another call with the id of the call above ({toolCallId}), and this page runs one call per id.
      </p>
    </article>
  );
}

/**
 * One message under a hidden heading that says who speaks: text in bubbles, tool calls as cards, in the order the model
 * produced them; marked if the user stopped it.
 */
export function MessageView(
  props: {
    readonly message: EdgetoolUIMessage;
    readonly toolCalls: ReadonlyMap<string, ToolCallView>;
    readonly questions: readonly UserQuestion<DateQuestion>[];
    readonly streaming: boolean;
    /** The user stopped this answer before it ended. */
    readonly stopped: boolean;
    /** The model is thinking in this answer (it streams, and its current step shows nothing new yet): the dots go after its parts. */
    readonly thinking?: boolean | undefined;
    /** The server tools' input schemas by name (`GET /api/tools`), for the approval editor. */
    readonly inputSchemas: ReadonlyMap<string, JsonSchema>;
    /** Asks for an expired call again; only for the last answer, while nothing else waits. */
    readonly onAskAgain?: ((toolCallId: string) => void) | undefined;
    /** Sends the last answer's decisions again (they got no answer); only for the last answer, while nothing is on its way. */
    readonly onSendAgain?: (() => void) | undefined;
    /**
     * Asks the model again for its words on this answer's results: an error ended it there (`goesOnAfterFailure`, kept
     * across a reload). Only for the last answer, while nothing is on its way.
     */
    readonly onGoOn?: (() => void) | undefined;
    /**
     * The server refused this answer's continuation for good (`refusedContinuation`, kept across a reload): its cards
     * with the user's decisions say why in place of Retry. Only for the last answer.
     */
    readonly refused?: FailedRequest['error'] | undefined;
  } & ToolCardActions,
): ReactElement {
  const { message, toolCalls, questions, streaming, stopped, onGoOn } = props;
  const goOnId = useId();
  // Call ids this message has shown a card for: a later part with one of them (or with the id of an earlier answer's
  // call, whose view names that answer) repeats it.
  const shown = new Set<string>();
  const isUser = message.role === 'user';
  const usage = formatUsage(message.metadata?.usage);
  const limit = limitNote(
    message.metadata?.limit,
    message.parts.some((part) => (part.type === 'text' && part.text.trim() !== '') || isToolPart(part)),
  );
  return (
    <div className={`message message-${message.role}`} data-testid={`message-${message.role}`} data-message-id={message.id}>
      {/* Who speaks, for screen readers (the bubbles' side and colour say it to the eye), and a heading to go from one
          message to the next by. */}
      <h2 className="visually-hidden">{isUser ? 'You said:' : 'The assistant said:'}</h2>
      {!isUser && (
        <div className="avatar" aria-hidden="true">
          et
        </div>
      )}
      <div className="message-parts">
        {message.parts.map((part, index) => {
          if (part.type === 'text') {
            if (part.text.trim() === '') return null;
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: parts are append-only within a message.
              <p key={index} className={`bubble${streaming && part.state === 'streaming' ? ' bubble-streaming' : ''}`} data-testid="message-text">
                {part.text}
              </p>
            );
          }
          if (isToolPart(part)) {
            const view = toolCalls.get(part.toolCallId);
            if (!view) return null;
            if (view.messageId !== message.id || shown.has(part.toolCallId)) {
              // biome-ignore lint/suspicious/noArrayIndexKey: parts are append-only within a message; the call id is taken.
              return <RepeatedCall key={`repeat-${index}`} toolCallId={part.toolCallId} toolName={toolNameOfPart(part)} />;
            }
            shown.add(part.toolCallId);
            const question = questions.find((q) => q.id === part.toolCallId)?.question;
            return <ToolCard key={part.toolCallId} {...props} view={view} dateQuestion={question} inputSchema={props.inputSchemas.get(view.toolName)} />;
          }
          return null;
        })}
        {props.thinking === true && !isUser ? <Thinking row={false} /> : null}
        {!isUser && !streaming && usage !== undefined ? (
          <p className="usage-note" data-testid="message-usage" title={usage.title}>
            {usage.label}
          </p>
        ) : null}
        {!isUser && !streaming && limit !== undefined ? (
          <p className="stopped-note" data-testid="message-limit">
            {limit}
          </p>
        ) : null}
        {stopped ? (
          <p className="stopped-note" data-testid="message-stopped">
            Stopped: this answer was cut short.
          </p>
        ) : null}
        {!isUser && onGoOn !== undefined ? (
          <div className="answer-retry" data-testid="answer-retry">
            <p id={goOnId}>An error stopped the answer after its calls' results came, before the model's words on them. Retry asks for them again; nothing runs again.</p>
            <button type="button" className="button small" data-testid="answer-retry-button" aria-describedby={goOnId} onClick={onGoOn}>
              Retry
            </button>
          </div>
        ) : null}
      </div>
    </div>
  );
}
