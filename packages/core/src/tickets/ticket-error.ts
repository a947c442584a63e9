import { ToolError, type ToolErrorJSON } from '../errors/tool-error.ts';

const TICKET_MARKER: unique symbol = Symbol.for('edgetool.ticket-error') as never;

/** Why a ticket was refused. Stable: clients may switch on it. */
export type TicketErrorReason =
  /** No ticket came with the call. */
  | 'missing'
  /** Not a ticket: wrong format, encoding or claims. */
  | 'malformed'
  /** Signed with a key id this server does not have (forged, or a retired key). */
  | 'unknown-key'
  /** The signature does not match: the ticket was forged or tampered with. */
  | 'bad-signature'
  /** The ticket is past its expiry. */
  | 'expired'
  /** A valid ticket, but for another call (see `field`). */
  | 'mismatch'
  /** The ticket was already used. */
  | 'replayed'
  /** The ticket was already used, with another decision than this request's (see `TicketVerifyOptions.decision`). */
  | 'conflict';

/** The part of a {@link TicketSubject} that differed from what the ticket was issued for. */
export type TicketMismatchField = 'purpose' | 'toolName' | 'callId' | 'conversationId' | 'args';

/** Options for {@link TicketError}. */
export interface TicketErrorOptions {
  readonly field?: TicketMismatchField | undefined;
  /** With `replayed`: the first use kept this request's very decision (see {@link TicketError.sameDecision}). */
  readonly sameDecision?: boolean | undefined;
  readonly toolName?: string | undefined;
  readonly callId?: string | undefined;
}

/** The serialised form of a {@link TicketError}. */
export interface TicketErrorJSON extends ToolErrorJSON {
  readonly reason: TicketErrorReason;
  readonly field?: TicketMismatchField;
}

const MESSAGES: Record<TicketErrorReason, string> = {
  missing: 'No ticket was provided for this tool call.',
  malformed: 'The ticket is malformed.',
  'unknown-key': 'The ticket was signed with an unknown or retired key.',
  'bad-signature': 'The ticket signature is invalid.',
  expired: 'The ticket has expired.',
  mismatch: 'The ticket was issued for a different tool call.',
  replayed: 'The ticket has already been used.',
  conflict: 'The ticket has already been used, with another decision.',
};

/**
 * A refused ticket: a `ToolError` with code `'ticket-invalid'` and a precise `reason`. Its message
 * never contains the secret or ticket contents, so it is safe to send to a client.
 */
export class TicketError extends ToolError {
  readonly reason: TicketErrorReason;
  /** Set when `reason` is `'mismatch'`. */
  readonly field?: TicketMismatchField;
  /**
   * `true` with `replayed` when the ticket's first use kept the very decision of this request (`verify(…, { decision
   * })`), so that decision is confirmed; absent when it kept none (a nonce store without `claimDecision`).
   */
  readonly sameDecision?: true;

  constructor(reason: TicketErrorReason, options: TicketErrorOptions = {}) {
    const message =
      reason === 'mismatch' && options.field !== undefined
        ? `The ticket was issued for a different tool call (${options.field} differs).`
        : MESSAGES[reason];
    super('ticket-invalid', message, { toolName: options.toolName, callId: options.callId });
    this.name = 'TicketError';
    // Defined, not declared: isolatedDeclarations rejects computed class members, even for unique symbols.
    Object.defineProperty(this, TICKET_MARKER, { value: true });
    this.reason = reason;
    if (options.field !== undefined) this.field = options.field;
    if (options.sameDecision === true) this.sameDecision = true;
  }

  /** True for any edgetool `TicketError`, even one from another copy of the package. */
  static override isInstance(value: unknown): value is TicketError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TICKET_MARKER] === true;
  }

  /** A plain, serialisable view, with `reason` and `field`. */
  override toJSON(): TicketErrorJSON {
    return { ...super.toJSON(), reason: this.reason, ...(this.field === undefined ? {} : { field: this.field }) };
  }
}
