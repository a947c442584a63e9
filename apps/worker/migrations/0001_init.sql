-- edgetool demo schema. Applied by `wrangler d1 migrations apply DB --local|--remote` in dev and deploy,
-- and by test/apply-migrations.ts (applyD1Migrations) inside workerd in the tests.

-- One row per customer order. `delay_days` is how many days the current delivery date lies behind
-- the date first promised to the customer (0 = on time).
CREATE TABLE orders (
  id            TEXT    PRIMARY KEY CHECK (id GLOB 'A-[0-9][0-9][0-9][0-9]'),
  customer      TEXT    NOT NULL,
  email         TEXT    NOT NULL CHECK (email LIKE '%_@_%'),
  items         TEXT    NOT NULL CHECK (json_valid(items) AND json_type(items) = 'array'),
  status        TEXT    NOT NULL CHECK (status IN ('pending', 'shipped', 'delayed', 'delivered')),
  delivery_date TEXT    NOT NULL CHECK (delivery_date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
  delay_days    INTEGER NOT NULL DEFAULT 0 CHECK (delay_days >= 0),
  updated_at    TEXT    NOT NULL
);
CREATE INDEX orders_open_delay ON orders (delay_days) WHERE status <> 'delivered';

-- Audit trail: every change a tool makes to an order, written in the same batch (transaction) as the change.
CREATE TABLE order_events (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id   TEXT    NOT NULL REFERENCES orders (id),
  kind       TEXT    NOT NULL CHECK (kind IN ('delivery_date_changed', 'email_queued')),
  details    TEXT    NOT NULL CHECK (json_valid(details)),
  call_id    TEXT,
  created_at TEXT    NOT NULL
);
CREATE INDEX order_events_order ON order_events (order_id, id);

-- "Sent" e-mail: nothing leaves the Worker, messages wait here. The idempotency key (conversation id +
-- tool call id) makes a retried continuation of the same approved call enqueue nothing twice.
CREATE TABLE outbox (
  id              TEXT PRIMARY KEY,
  to_address      TEXT NOT NULL,
  subject         TEXT NOT NULL,
  body            TEXT NOT NULL,
  order_id        TEXT NOT NULL REFERENCES orders (id),
  created_at      TEXT NOT NULL,
  idempotency_key TEXT NOT NULL UNIQUE
);

-- Used ticket nonces (single-use approval/client-result tickets); rows may go once expires_at (epoch ms) passed.
CREATE TABLE ticket_nonces (
  nonce      TEXT    PRIMARY KEY,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX ticket_nonces_expiry ON ticket_nonces (expires_at);
