-- qipai store, version 11 (PostgreSQL): one row an action. `sent_ms`: the moment the room's
-- last answers left (`Game::sent`), carried by the step that follows instead of a row of its
-- own (kind 6, still written when no step follows and still replayed). The fencing trigger
-- stays (several nodes share this database; SQLite dropped its own).
ALTER TABLE steps ADD COLUMN sent_ms BIGINT;
