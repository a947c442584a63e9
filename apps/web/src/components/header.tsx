import type { ExecutionMode } from '@edgetool/ai';
import type { ActiveModel } from '@edgetool/react';
import type { ReactElement, RefObject } from 'react';
import type { ServerInfo } from '../lib/server-info.ts';

const MODES: readonly { readonly mode: ExecutionMode; readonly label: string; readonly hint: string }[] = [
  { mode: 'internal', label: 'Internal', hint: 'The server runs its own tools; only browser tools and approvals come to you.' },
  { mode: 'manual', label: 'Manual', hint: 'Every call comes to this browser: its chain authorises server calls and runs browser tools.' },
];

const SERVER_LABELS: Readonly<Record<ServerInfo['status'], string>> = {
  checking: 'Server: checking…',
  online: 'Server: online',
  unreachable: 'Server: unreachable',
};

/** Title, server status, the active model, the mode switch, the side panel's toggle (narrow screens) and "new chat". */
export function Header(props: {
  readonly server: ServerInfo['status'];
  readonly model: ActiveModel | undefined;
  readonly mode: ExecutionMode;
  readonly onMode: (mode: ExecutionMode) => void;
  readonly onNewChat: () => void;
  /** Whether the side panel is open on a narrow screen (it is always shown on a wide one). */
  readonly panelOpen: boolean;
  readonly panelToggleRef: RefObject<HTMLButtonElement | null>;
  readonly onTogglePanel: () => void;
}): ReactElement {
  const { server, model, mode, onMode, onNewChat, panelOpen, panelToggleRef, onTogglePanel } = props;
  return (
    <header className="app-header">
      <div className="brand">
        <span className="logo" aria-hidden="true" />
        <div>
          <h1>edgetool</h1>
          <p>typed tool calls · browser + worker</p>
        </div>
      </div>
      <div className="header-center">
        <span
          className={`server-dot server-${server}`}
          data-testid="server-status"
          data-status={server}
          role="img"
          aria-label={SERVER_LABELS[server]}
          title={SERVER_LABELS[server]}
        />
        <span className={`model-label${model?.offline ? ' model-offline' : ''}`} data-testid="model-label" data-offline={model ? String(model.offline) : 'unknown'}>
          {model ? (
            <>
              {model.offline ? <span className="offline-tag">offline model</span> : <span className="online-tag">model</span>}
              <span className="model-id">{model.offline ? model.modelId : model.label}</span>
            </>
          ) : server === 'unreachable' ? (
            'no model · server unreachable'
          ) : (
            'model …'
          )}
        </span>
      </div>
      <div className="header-actions">
        <fieldset className="mode-switch" data-testid="mode-switch" data-mode={mode}>
          <legend className="visually-hidden">Execution mode</legend>
          {MODES.map((m) => (
            <button
              key={m.mode}
              type="button"
              data-testid={`mode-${m.mode}`}
              aria-pressed={mode === m.mode}
              className={mode === m.mode ? 'active' : ''}
              title={m.hint}
              onClick={() => onMode(m.mode)}
            >
              {m.label}
            </button>
          ))}
        </fieldset>
        <button
          ref={panelToggleRef}
          type="button"
          className="button ghost panel-toggle"
          data-testid="panel-toggle"
          aria-controls="side-panel"
          aria-expanded={panelOpen}
          onClick={onTogglePanel}
        >
          Cart &amp; tools
        </button>
        <button type="button" className="button ghost new-chat" data-testid="new-chat" onClick={onNewChat}>
          New chat
        </button>
      </div>
    </header>
  );
}
