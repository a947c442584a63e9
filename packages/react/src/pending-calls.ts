const MARKER: unique symbol = Symbol.for('edgetool.CallsPendingError') as never;

/**
 * A retry (`sendMessage()` without a message) refused, and nothing sent: calls of the last answer still wait for this
 * browser or its user (`toolCallIds`). Sent now, the server would read them unanswered and the answers given later lost.
 */
export class CallsPendingError extends Error {
  /** Stable, for an app's rules. */
  readonly code: 'calls-pending';
  /** The calls that wait, in the order of the answer. */
  readonly toolCallIds: readonly string[];

  constructor(toolCallIds: readonly string[]) {
    const list = toolCallIds.map((id) => `"${id}"`).join(', ');
    const [calls, wait, they] = toolCallIds.length === 1 ? ['the call', 'waits', 'it is'] : ['the calls', 'wait', 'they are'];
    super(`Nothing was sent: ${calls} ${list} of the last answer still ${wait} for this browser or its user; the answer goes out once ${they} answered.`);
    this.name = 'CallsPendingError';
    this.code = 'calls-pending';
    this.toolCallIds = toolCallIds;
    Object.defineProperty(this, MARKER, { value: true });
  }

  /** True for a `CallsPendingError`, even one from another copy of the package. */
  static isInstance(value: unknown): value is CallsPendingError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}
