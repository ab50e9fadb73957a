-- qipai store, version 7 (PostgreSQL): the games already finished at a table whose match goes on
-- (a xiangqi best of three, a knockout's extra game), so that a restart mid-match continues
-- it. `games` lists their results' stable names, comma-separated, in the order played
-- (empty: none yet); `game_opened_ms` is when the current game's table opened (Unix ms; its
-- lateness counts from there), NULL for the first game (it counts from the round's start).
-- While the table has no result, `note` holds what the finished games' notes said.
ALTER TABLE competition_pairings ADD COLUMN games TEXT NOT NULL DEFAULT '';
ALTER TABLE competition_pairings ADD COLUMN game_opened_ms BIGINT;
