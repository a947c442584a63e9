import { type JsonSchema, jsonSchema, type ToolProgress } from '@edgetool/core';
import type { ToolCallView } from '@edgetool/react';
import { type CSSProperties, type KeyboardEvent, type ReactElement, useEffect, useId, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import {
  base64Bytes,
  durationTitle,
  formatDuration,
  formatUsage,
  formatValue,
  type OutputDocument,
  outputDocuments,
  outputImages,
  progressDisplay,
  statusLabel,
  statusTone,
  traceToggleLabel,
  withoutFileData,
} from '../lib/format.ts';
import { approvalText } from '../lib/approval-text.ts';
import type { FailedRequest } from '../lib/chat-storage.ts';
import { changedFields, describeEdits, type EditField, type EditIssue, editedInput, editFields, editIssue } from '../lib/edits.ts';
import { isTooLarge } from '../lib/error-hint.ts';
import { refusedDecisionText, unsentDecision } from '../lib/unsent.ts';
import type { DateQuestion } from '../tools/browser-tools.ts';
import { DatePicker } from './date-picker.tsx';
import { TraceTimeline } from './trace-timeline.tsx';

/** What a card can do besides showing the call. */
export interface ToolCardActions {
  /** With `input`: the user edited the arguments before approving (the whole arguments). */
  readonly onApprove: (toolCallId: string, options?: { readonly input?: unknown }) => void;
  readonly onDeny: (toolCallId: string, reason?: string) => void;
  readonly onChooseDate: (toolCallId: string, date: string) => void;
  readonly onCancelDate: (toolCallId: string) => void;
}

/** Past this many lines a value is shown as one text, not a line each (a huge output stays cheap to render). */
const MAX_INDENTED_LINES = 2_000;

/**
 * JSON written out, a line each: a line too long for the card wraps under its own start, two characters in, not at the
 * card's edge, where it read as a key of the object around it (`"email":` then the address at the left margin on a
 * phone). The text is unchanged (each line keeps its spaces and its newline), so a copy reads as before.
 */
function IndentedLines({ text }: { readonly text: string }): ReactElement | string {
  const lines = text.split('\n');
  if (lines.length > MAX_INDENTED_LINES) return text;
  return (
    <>
      {lines.map((line, at) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the lines of one text, in order; a line has no other identity.
        <span key={at} className="json-line" style={{ '--indent': `${line.length - line.trimStart().length}ch` } as CSSProperties}>
          {at < lines.length - 1 ? `${line}\n` : line}
        </span>
      ))}
    </>
  );
}

function JsonBlock({ label, value, testId, tone }: { label: string; value: unknown; testId: string; tone?: 'error' }): ReactElement {
  const text = formatValue(value);
  return (
    <div className={`tool-block${tone === 'error' ? ' tool-block-error' : ''}`}>
      <div className="tool-block-label">{label}</div>
      <pre data-testid={testId}>{typeof value === 'string' ? text : <IndentedLines text={text} />}</pre>
    </div>
  );
}

/** The images a tool returned (a chart, a screenshot), shown above its JSON. */
function OutputImages({ output, toolName }: { output: unknown; toolName: string }): ReactElement | null {
  const images = outputImages(output);
  if (images.length === 0) return null;
  return (
    <div className="tool-images">
      {images.map((image) => (
        <img key={image.at} className="tool-image" data-testid="tool-image" src={image.src} alt={image.at === 'output' ? `What ${toolName} returned` : `${image.at} from ${toolName}`} />
      ))}
    </div>
  );
}

/**
 * A link that opens a PDF the tool returned in a new tab, from a `blob:` URL made when it shows and revoked when it
 * goes (a `data:` URL would put the whole file in the href, and browsers block top-level navigation to one).
 */
function DocumentLink({ pdf }: { pdf: OutputDocument }): ReactElement {
  const [href, setHref] = useState<string | undefined>(undefined);
  const { data, mediaType } = pdf;
  useEffect(() => {
    const url = URL.createObjectURL(new Blob([base64Bytes(data)], { type: mediaType }));
    setHref(url);
    return () => URL.revokeObjectURL(url);
  }, [data, mediaType]);
  return (
    <a className="button small tool-document" data-testid="tool-document" href={href} target="_blank" rel="noopener" aria-disabled={href === undefined ? 'true' : undefined}>
      <span aria-hidden="true">▤</span>
      {pdf.label}
    </a>
  );
}

/** The PDFs a tool returned (an invoice), as links above its JSON. */
function OutputDocuments({ output }: { output: unknown }): ReactElement | null {
  const documents = outputDocuments(output);
  if (documents.length === 0) return null;
  return (
    <div className="tool-documents">
      {documents.map((pdf) => (
        <DocumentLink key={pdf.at} pdf={pdf} />
      ))}
    </div>
  );
}

/**
 * The call's latest progress report: live (and announced politely) while it runs, a muted record of what the tool
 * did once it ended. The bar is a native `<progress>` (role progressbar, with its value and maximum).
 */
function ProgressLine({ progress, toolName, running }: { progress: ToolProgress; toolName: string; running: boolean }): ReactElement {
  const { text, bar } = progressDisplay(progress);
  return (
    <div className={`tool-progress${running ? ' tool-progress-live' : ''}`} data-testid="tool-progress" data-running={running ? 'true' : 'false'} role="status">
      <span className="tool-progress-text" data-testid="tool-progress-text">
        {text}
      </span>
      {bar ? <progress className="tool-progress-bar" data-testid="tool-progress-bar" max={bar.max} value={bar.value} aria-label={`${toolName} progress`} /> : null}
    </div>
  );
}

/** Why an expired call can no longer be answered, in the words that fit what it was. */
function expiredText(view: ToolCallView): string {
  if (view.partState === 'output-available' || view.partState === 'output-error') {
    return 'It ran in this browser, but its result came too late: the server no longer takes it.';
  }
  const what = view.approval !== undefined || view.policy?.needsApproval === true ? 'This approval' : 'This call';
  return `${what} expired before it was answered, so nothing ran. An answer is only taken for a limited time.`;
}

/** Calls `then` for Enter in a one-line field (not while an input method composes a character). */
const enterKey = (then: () => void) => (event: KeyboardEvent<HTMLInputElement>) => {
  if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
  event.preventDefault();
  then();
};

/**
 * The arguments the user may change before approving, each with a control that suits its value. Enter in a one-line
 * field calls `onEnter` (a text area keeps Enter for its lines). The field `error` names is marked invalid and described
 * by the problem's text, so a screen reader says it whenever that field has focus, not only once as the alert.
 */
function ArgumentEditor(props: {
  readonly fields: readonly EditField[];
  readonly values: Readonly<Record<string, string>>;
  readonly error: EditIssue | undefined;
  readonly disabled: boolean;
  readonly onChange: (key: string, value: string) => void;
  readonly onEnter: () => void;
}): ReactElement {
  const { fields, values, error, disabled, onChange } = props;
  const id = useId();
  const errorId = `${id}-error`;
  // A problem found (by Enter, or by Approve) takes the focus to its field, where the user fixes it.
  useEffect(() => {
    if (error !== undefined) document.getElementById(`${id}-${error.key}`)?.focus();
  }, [error, id]);
  return (
    <fieldset className="approval-edits" data-testid="approval-edits" disabled={disabled}>
      <legend>You can change before approving</legend>
      {fields.map((field) => {
        const value = values[field.key] ?? field.initial;
        const invalid = error?.key === field.key;
        const common = {
          id: `${id}-${field.key}`,
          'data-testid': `edit-${field.key}`,
          value,
          'aria-invalid': invalid ? true : undefined,
          'aria-describedby': invalid ? errorId : undefined,
          onChange: (event: { target: { value: string } }) => onChange(field.key, event.target.value),
        };
        return (
          <label key={field.key} className="approval-edit" htmlFor={common.id}>
            <span>{field.key}</span>
            {field.kind === 'long-text' || field.kind === 'json' ? (
              <textarea {...common} rows={field.kind === 'json' ? 3 : 4} spellCheck={field.kind === 'long-text'} />
            ) : (
              <input {...common} type={field.kind === 'date' ? 'date' : field.kind === 'number' ? 'number' : 'text'} onKeyDown={enterKey(props.onEnter)} />
            )}
          </label>
        );
      })}
      {error === undefined ? null : (
        <p className="tool-note" role="alert" data-testid="edit-error" id={errorId}>
          {error.message}
        </p>
      )}
    </fieldset>
  );
}

/** One tool call: input, state, output or error, where it ran, timing, approval buttons, its trace. */
export function ToolCard(
  props: {
    readonly view: ToolCallView;
    readonly dateQuestion: DateQuestion | undefined;
    /** The tool's input schema, when the server described the tool: the controls of arguments the model left out follow it. */
    readonly inputSchema?: JsonSchema | undefined;
    /** Asks the model for this call again (it expired); absent where that makes no sense now. */
    readonly onAskAgain?: ((toolCallId: string) => void) | undefined;
    /**
     * Sends the last answer's continuation again: the user's decision on this call got no answer from the server (its
     * request failed, or a reload came first). Absent while there is nothing to send again.
     */
    readonly onSendAgain?: (() => void) | undefined;
    /**
     * The server refused the continuation that carried the user's decision on this call for good (`refusedContinuation`,
     * kept across a reload): the card says why in place of Retry, and offers Ask again for an approval.
     */
    readonly refused?: FailedRequest['error'] | undefined;
    /** The answer this call is in streams: an approved call then runs on the server, and its pill says so. */
    readonly streaming?: boolean | undefined;
  } & ToolCardActions,
): ReactElement {
  const { view, dateQuestion, inputSchema, onAskAgain, onSendAgain, refused } = props;
  const unsent = onSendAgain === undefined ? undefined : unsentDecision(view);
  const unsentId = useId();
  const refusedDecision = refused === undefined ? undefined : unsentDecision(view);
  const [showTrace, setShowTrace] = useState(true);
  const [reason, setReason] = useState('');
  const reasonId = useId();
  // The card's name for assistive technology: the tool and its state ("update_delivery_date needs approval").
  const nameId = useId();
  const stateId = useId();
  // A browser tool waiting for the user's answer (pick_date) is the user's turn, not just "running".
  const waitingForUser = dateQuestion !== undefined && view.status === 'running';
  // A decision the server refused for good reads as refused, not as the user's choice (nothing ran).
  const tone = waitingForUser ? 'attention' : refusedDecision !== undefined ? 'bad' : statusTone(view.status);
  const effects = view.policy?.effects;
  // The tokens a sub-agent (or a tool that calls a model) spent, reported by the call itself.
  const usage = formatUsage(view.usage, 'this call');
  const awaitingApproval = view.status === 'awaiting-approval';
  // The user's answer to this approval, from the first click on: a double click, or Approve and Deny hit together,
  // must not answer twice. The ref decides within one tick; flushSync disables both buttons before the next click.
  const [answer, setAnswer] = useState<'approve' | 'deny' | undefined>(undefined);
  const answered = useRef(false);
  // The arguments the server lets the user change (its approval ticket says which), and what the user typed.
  const fields = awaitingApproval && view.approval?.source === 'server' ? editFields(view.input, view.editable, inputSchema) : [];
  const [values, setValues] = useState<Record<string, string>>({});
  const [editError, setEditError] = useState<EditIssue | undefined>(undefined);
  // The tool's input schema checks the user's values before the approval goes: the server refuses an edit it fails,
  // and the call then ends unperformed, its approval spent. Made when the editor shows, so it has loaded by the click.
  const editing = fields.length > 0;
  const validator = useMemo(() => (editing && inputSchema !== undefined ? jsonSchema(inputSchema) : undefined), [editing, inputSchema]);
  const approveButton = useRef<HTMLButtonElement>(null);
  const denyButton = useRef<HTMLButtonElement>(null);
  // What the tool's input schema says of the edited arguments (`undefined`: none edited, or no problem; a promise while
  // its validator loads).
  const issueOf = (input: unknown) => (input === undefined ? undefined : editIssue(validator, input, changedFields(fields, values)));
  const decide = (choice: 'approve' | 'deny') => {
    if (answered.current) return;
    const edited = choice === 'approve' ? editedInput(view.input, fields, values) : undefined;
    if (edited?.ok === false) return setEditError(edited);
    const input = edited?.input;
    const issue = issueOf(input);
    if (issue !== undefined && !(issue instanceof Promise)) return setEditError(issue);
    answered.current = true;
    flushSync(() => setAnswer(choice));
    if (choice === 'deny') props.onDeny(view.toolCallId, reason.trim() || undefined);
    else if (input === undefined) props.onApprove(view.toolCallId);
    else if (!(issue instanceof Promise)) props.onApprove(view.toolCallId, { input });
    else {
      // The validator was still loading: the buttons wait for its answer (a failed load leaves the check to the server).
      void issue.then(
        (found) => {
          if (found === undefined) return props.onApprove(view.toolCallId, { input });
          answered.current = false;
          flushSync(() => setAnswer(undefined));
          setEditError(found);
        },
        () => props.onApprove(view.toolCallId, { input }),
      );
    }
  };
  // Enter in a field goes to the button the field is for, and the user decides there (Enter again, or a click): a
  // stray Enter must not run a write. In an edit field it first checks the values, naming one that cannot be sent.
  const toApprove = () => {
    const edited = editedInput(view.input, fields, values);
    if (!edited.ok) return setEditError(edited);
    const issue = issueOf(edited.input);
    if (issue !== undefined && !(issue instanceof Promise)) return setEditError(issue);
    approveButton.current?.focus();
  };
  return (
    <article
      className={`tool-card tone-${tone}`}
      data-testid="tool-card"
      data-tool-name={view.toolName}
      data-tool-call-id={view.toolCallId}
      data-state={view.status}
      data-waiting-for-user={waitingForUser ? 'true' : undefined}
      data-ran-on={view.ranOn ?? 'unknown'}
      aria-labelledby={`${nameId} ${stateId}`}
    >
      <header className="tool-head">
        <span className="tool-icon" aria-hidden="true">
          {view.ranOn === 'browser' ? '◧' : '◨'}
        </span>
        <code className="tool-name" id={nameId}>
          {view.toolName}
        </code>
        {effects && effects !== 'read' ? <span className={`effect-tag effect-${effects}`}>{effects}</span> : null}
        <span className="spacer" />
        {view.ranOn ? (
          <span className={`where-tag where-${view.ranOn}`} data-testid="tool-where" title={view.ranOn === 'browser' ? 'Runs in this browser' : 'Runs on the server'}>
            {view.ranOn}
          </span>
        ) : null}
        {usage === undefined ? null : (
          <span className="tool-usage" data-testid="tool-usage" title={usage.title}>
            {usage.label}
          </span>
        )}
        <span className="tool-duration" data-testid="tool-duration" title={durationTitle(view.durationMs, view.ranOn === 'browser' ? 'client' : 'server')}>
          {formatDuration(view.durationMs)}
        </span>
        <span className={`status-pill status-${tone}`} data-testid="tool-state" id={stateId}>
          {(tone === 'busy' || tone === 'attention') && <span className="pulse" aria-hidden="true" />}
          {waitingForUser ? 'your input' : statusLabel(view.status, { streaming: props.streaming === true, refused: refusedDecision !== undefined })}
        </span>
      </header>

      {view.progress ? <ProgressLine progress={view.progress} toolName={view.toolName} running={view.status === 'running'} /> : null}

      <div className="tool-body">
        <JsonBlock label="input" value={view.input ?? {}} testId="tool-input" />
        {view.status === 'done' ? <OutputImages output={view.output} toolName={view.toolName} /> : null}
        {view.status === 'done' ? <OutputDocuments output={view.output} /> : null}
        {view.status === 'done' ? <JsonBlock label="output" value={withoutFileData(view.output)} testId="tool-output" /> : null}
        {view.errorText ? <JsonBlock label="error" value={view.errorText} testId="tool-error" tone="error" /> : null}
      </div>
      {view.status === 'denied' && view.approval?.reason ? <p className="tool-note">Denied: {view.approval.reason}</p> : null}
      {view.edits === undefined ? null : (
        <p className="tool-edited" data-testid="tool-edits">
          Edited by you before approving: {describeEdits(view.edits)}
        </p>
      )}

      {unsent === undefined ? null : (
        <div className="tool-unsent" data-testid="tool-unsent" data-decision={unsent}>
          <p id={unsentId}>
            {unsent === 'approval'
              ? 'Your approval got no answer from the server. Retry sends it again; the call does not run twice.'
              : 'Your denial got no answer from the server. Retry sends it again; nothing runs.'}
          </p>
          <button type="button" className="button small" data-testid="send-again" aria-describedby={unsentId} onClick={onSendAgain}>
            Retry
          </button>
        </div>
      )}

      {refused === undefined || refusedDecision === undefined ? null : (
        <div className="tool-refused" data-testid="tool-refused" data-decision={refusedDecision} data-reason={refused.reason ?? refused.code}>
          <p>{refusedDecisionText(refusedDecision, refused, view.toolCallId)}</p>
          {onAskAgain && refusedDecision === 'approval' && !isTooLarge(refused) ? (
            <button type="button" className="button small" data-testid="ask-again" onClick={() => onAskAgain(view.toolCallId)}>
              Ask again
            </button>
          ) : null}
        </div>
      )}

      {view.status === 'expired' ? (
        <div className="tool-expired" data-testid="tool-expired">
          <p>{expiredText(view)}</p>
          {onAskAgain ? (
            <button type="button" className="button small" data-testid="ask-again" onClick={() => onAskAgain(view.toolCallId)}>
              Ask again
            </button>
          ) : null}
        </div>
      ) : null}

      {dateQuestion && view.status !== 'expired' ? (
        <DatePicker question={dateQuestion} onChoose={(date) => props.onChooseDate(view.toolCallId, date)} onCancel={() => props.onCancelDate(view.toolCallId)} />
      ) : null}

      {awaitingApproval ? (
        <div className="approval" data-testid="approval" data-source={view.approval?.source}>
          <p className="approval-text" data-testid="approval-text">
            {approvalText({ source: view.approval?.source, mode: view.mode, effects })}
          </p>
          {view.approval?.requestReason ? (
            // The tool's own words for this call (policy.approvalReason), worked out by the server: not the model's.
            <p className="approval-request-reason" data-testid="approval-request-reason">
              {view.approval.requestReason}
              {changedFields(fields, values).length > 0 ? (
                // The server worked these words out for the model's arguments; the user's changes are not in them.
                <span className="approval-request-note" data-testid="approval-request-note">
                  {' '}
                  (said of the arguments as proposed, before your changes)
                </span>
              ) : null}
            </p>
          ) : null}
          {fields.length > 0 ? (
            <ArgumentEditor
              fields={fields}
              values={values}
              error={editError}
              disabled={answer !== undefined}
              onEnter={toApprove}
              onChange={(key, value) => {
                // A change of the field with the problem clears it (Enter or Approve checks again); the problem of
                // another field stays named while it is still there.
                setEditError((current) => (current?.key === key ? undefined : current));
                setValues((current) => ({ ...current, [key]: value }));
              }}
            />
          ) : null}
          <label className="visually-hidden" htmlFor={reasonId}>
            Reason if you deny (optional)
          </label>
          <input
            id={reasonId}
            className="approval-reason"
            data-testid="deny-reason"
            placeholder="Reason if you deny (optional)"
            value={reason}
            disabled={answer !== undefined}
            onChange={(event) => setReason(event.target.value)}
            onKeyDown={enterKey(() => denyButton.current?.focus())}
          />
          <div className="button-row">
            <button type="button" className="button primary" data-testid="approve" ref={approveButton} disabled={answer !== undefined} onClick={() => decide('approve')}>
              {answer === 'approve' ? 'Approving…' : 'Approve'}
            </button>
            <button type="button" className="button danger" data-testid="deny" ref={denyButton} disabled={answer !== undefined} onClick={() => decide('deny')}>
              {answer === 'deny' ? 'Denying…' : 'Deny'}
            </button>
          </div>
        </div>
      ) : null}

      {view.traces.length > 0 ? (
        <div className="tool-trace">
          <button type="button" className="link-button" data-testid="trace-toggle" aria-expanded={showTrace} onClick={() => setShowTrace((s) => !s)}>
            {showTrace ? 'Hide trace' : traceToggleLabel(view.traces)}
          </button>
          {showTrace ? <TraceTimeline traces={view.traces} /> : null}
        </div>
      ) : null}
    </article>
  );
}
