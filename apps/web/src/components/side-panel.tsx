import type { AnyTool } from '@edgetool/core';
import { type PolicySummary, type ServerToolInfo, summarizePolicy } from '@edgetool/react';
import { type ReactElement, useEffect, useId, useRef, useSyncExternalStore } from 'react';
import { type ServerInfo, serverToolsNote } from '../lib/server-info.ts';
import type { CartStore } from '../tools/cart-store.ts';

function ToolRow({ name, description, policy, side }: { name: string; description: string; policy: PolicySummary; side: 'server' | 'browser' }): ReactElement {
  const approval = policy.needsApproval === true ? 'asks first' : policy.needsApproval === 'conditional' ? 'may ask' : undefined;
  return (
    <li className="side-tool" data-testid={`${side}-tool`} data-tool-name={name}>
      <div className="side-tool-head">
        <code>{name}</code>
        <span className={`effect-dot effect-${policy.effects}`} title={policy.effects} />
      </div>
      <p>{description}</p>
      <div className="side-tool-tags">
        <span className="tag">{policy.effects}</span>
        {approval ? <span className="tag tag-attention">{approval}</span> : null}
        {policy.returnDirect ? <span className="tag">return-direct</span> : null}
      </div>
    </li>
  );
}

/**
 * The choices of the "automatic steps" setting (`useEdgeChat`'s `maxAutoContinuations`), its default first: how many
 * continuations the page sends by itself in a row before the answer waits for Continue.
 */
export const AUTO_STEP_CHOICES: readonly number[] = [10, 3, 1, 0, Number.POSITIVE_INFINITY];

/** A choice of the automatic-steps setting in words. */
function autoStepLabel(count: number): string {
  if (count === Number.POSITIVE_INFINITY) return 'no limit';
  if (count === 0) return '0: wait after each';
  return count === AUTO_STEP_CHOICES[0] ? `${count} (default)` : String(count);
}

/**
 * The tools on each side with their policies, the cart the browser tools keep, and how many steps the page takes by
 * itself. A column on wide screens; on narrow ones a drawer over the chat, shown while `open`.
 */
export function SidePanel(props: {
  readonly serverTools: readonly ServerToolInfo[];
  /** Whether the server's tools are still loading, could not be, or came (an empty list is then the server's). */
  readonly server: Pick<ServerInfo, 'status' | 'toolsProblem'>;
  readonly browserTools: readonly AnyTool[];
  readonly cart: CartStore;
  readonly open: boolean;
  readonly onClose: () => void;
  /** The automatic-steps setting in force (one of {@link AUTO_STEP_CHOICES}), and its change. */
  readonly autoSteps: number;
  readonly onAutoSteps: (count: number) => void;
}): ReactElement {
  const { serverTools, server, browserTools, cart, open, onClose, autoSteps, onAutoSteps } = props;
  const autoStepsHelp = useId();
  const summary = useSyncExternalStore(cart.subscribe, cart.summary, cart.summary);
  // An opened drawer takes the focus (its Close first): left on the toggle, Tab went on into the chat behind it.
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (open) close.current?.focus();
  }, [open]);
  return (
    <aside className={`side-panel${open ? ' side-panel-open' : ''}`} id="side-panel" data-testid="side-panel" aria-label="Cart and tools">
      <div className="side-panel-close">
        <button ref={close} type="button" className="button ghost small" data-testid="panel-close" onClick={onClose}>
          Close
        </button>
      </div>
      <section className="side-card" data-testid="cart">
        <h2>
          Cart <span className="count">{summary.count}</span>
        </h2>
        {summary.items.length === 0 ? (
          <p className="muted">Empty. Try “add 2 coffee beans to my cart”.</p>
        ) : (
          <ul className="cart-items">
            {summary.items.map((item) => (
              <li key={item.name} data-testid="cart-item">
                <span className="cart-item-name">
                  {item.quantity} × {item.name}
                </span>
                <span className="muted cart-item-price">{item.price === undefined ? '' : `€${(item.price * item.quantity).toFixed(2)}`}</span>
              </li>
            ))}
          </ul>
        )}
        {summary.total > 0 ? <p className="cart-total">Total €{summary.total.toFixed(2)}</p> : null}
        <p className="muted small">Kept in this browser’s localStorage by the cart tools.</p>
      </section>
      <section className="side-card" data-testid="auto-steps-setting">
        <h2>Automatic steps</h2>
        <label className="side-setting">
          <span>Steps in a row this page sends by itself</span>
          <select
            data-testid="auto-steps"
            aria-describedby={autoStepsHelp}
            value={String(autoSteps)}
            onChange={(event) => onAutoSteps(Number(event.currentTarget.value))}
          >
            {AUTO_STEP_CHOICES.map((count) => (
              <option key={count} value={String(count)}>
                {autoStepLabel(count)}
              </option>
            ))}
          </select>
        </label>
        <p className="muted small" id={autoStepsHelp}>
          After a browser tool's result or your decision, the page sends it on to the model by itself, this many times in a row
          (maxAutoContinuations); then the answer waits for Continue.
        </p>
      </section>
      <section className="side-card">
        <h2>
          Browser tools <span className="count">{browserTools.length}</span>
        </h2>
        <ul className="side-tools">
          {browserTools.map((tool) => (
            <ToolRow key={tool.name} name={tool.name} description={tool.description} policy={summarizePolicy(tool)} side="browser" />
          ))}
        </ul>
      </section>
      <section className="side-card">
        <h2>
          Server tools <span className="count">{serverTools.length}</span>
        </h2>
        {serverTools.length === 0 ? (
          <p className="muted" data-testid="server-tools-note">
            {serverToolsNote(server)}
          </p>
        ) : (
          <ul className="side-tools">
            {serverTools.map((tool) => (
              <ToolRow key={tool.name} name={tool.name} description={tool.description} policy={tool.policy} side="server" />
            ))}
          </ul>
        )}
      </section>
    </aside>
  );
}
