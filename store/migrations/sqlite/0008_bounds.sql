-- qipai store, version 8 (SQLite): what bounds the store and its readers.
-- The address that opened a room (the per-user key of its IP address: an IPv6 address by its
-- /64), so that a room reopened after a restart counts against that address's
-- `rooms_per_addr` again; NULL for the server's own rooms and rooms written before.
ALTER TABLE rooms ADD COLUMN addr TEXT;
-- What a list of games shows of a record (its players, result, short number and title), as
-- a small JSON object of the body's own keys: a page of a player's games reads these, not
-- whole records. NULL in records written before (the list then reads the body).
ALTER TABLE records ADD COLUMN summary TEXT;
-- A player's games newest first come straight off one index (the name, then the time the
-- game ended): a page reads its rows, not every game the name ever sat in.
ALTER TABLE record_players ADD COLUMN finished_ms INTEGER NOT NULL DEFAULT 0;
UPDATE record_players SET finished_ms = COALESCE(
    (SELECT finished_ms FROM records WHERE records.room = record_players.room), 0);
CREATE INDEX record_players_recent ON record_players (name, finished_ms, room);
DROP INDEX record_players_name;
