-- qipai store, version 9 (PostgreSQL): the signed-in account behind each session, seat and
-- finished game's seat (NULL: a guest or a bot). A rated table rates whoever its seats'
-- accounts are, also after a restart or a takeover, and an account's list of games is
-- found by the account, not by a name anybody may type.
ALTER TABLE sessions ADD COLUMN account BIGINT;
ALTER TABLE seat_changes ADD COLUMN account BIGINT;
ALTER TABLE record_players ADD COLUMN account BIGINT;
CREATE INDEX record_players_account ON record_players (account, room);
