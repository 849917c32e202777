-- When the notification a delivery is for was made: a delivery's record keeps the notification from
-- being sent twice only while it is among its user's latest (the senders look at those), which any
-- process's housekeeping tells from these rows alone. Deliveries claimed before take their last change.
ALTER TABLE server_webhook_deliveries ADD COLUMN notice_at BIGINT;
UPDATE server_webhook_deliveries SET notice_at = updated_at WHERE notice_at IS NULL;
CREATE INDEX server_webhook_deliveries_notice ON server_webhook_deliveries (user_id, notice_at);
