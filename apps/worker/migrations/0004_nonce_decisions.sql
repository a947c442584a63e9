-- What was decided with an approval ticket (approved, approved with a hash of the edited arguments, or denied), or what a
-- client answered with a client-result ticket (output or error, with a hash of it), kept in the same statement that
-- marks its nonce used: a continuation sent again that decides otherwise than the first copy (denies a call that runs,
-- approves one that was denied, answers a browser call otherwise) is refused. NULL: a nonce claimed without one (a plain
-- claim, or a row from before this column), read as "unknown" as before. See src/nonce-store.ts.
ALTER TABLE ticket_nonces ADD COLUMN decision TEXT;
