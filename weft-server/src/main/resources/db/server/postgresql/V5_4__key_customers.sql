-- A key made for one shop customer (weft keys create --customer EMAIL): it talks to the assistants as
-- that customer only (the concierge acts for nobody else), and reaches no other route.
ALTER TABLE server_api_keys ADD COLUMN customer TEXT;
