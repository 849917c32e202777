-- A delivery's claim is held by one sender until its lease ends: a sender renews it while it tries,
-- and when a sender dies (its process killed, its machine gone) the claim expires and the next sender
-- takes the notification over and sends it again with the same delivery id (at least once: the
-- receiver deduplicates on X-Weft-Delivery). Claims made before this migration have no lease and are
-- taken over at once.
ALTER TABLE server_webhook_deliveries ADD COLUMN sender TEXT;
ALTER TABLE server_webhook_deliveries ADD COLUMN lease_until INTEGER NOT NULL DEFAULT 0;
CREATE INDEX server_webhook_deliveries_sending ON server_webhook_deliveries (lease_until) WHERE status = 'SENDING';
