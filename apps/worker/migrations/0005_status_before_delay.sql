-- The status an open order had before a later delivery date made it `delayed` (pending or shipped): moving the date
-- back to the promised day, or before it, restores that status (update_delivery_date, src/tools/order-store.ts).
-- NULL while the order is not delayed. The seed's delayed orders have no earlier status on record: they count as
-- not yet shipped ('pending'), the one claim about them that the data does not contradict.
ALTER TABLE orders ADD COLUMN status_before_delay TEXT CHECK (status_before_delay IN ('pending', 'shipped'));
UPDATE orders SET status_before_delay = 'pending' WHERE status = 'delayed' AND status_before_delay IS NULL;
