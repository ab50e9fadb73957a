-- qipai store, version 5 (SQLite): a room's short number, the one people read and say
-- ("第 12 桌"), counted by the server from 1 and never handed out twice: the next one is
-- the largest handed out plus one. A room is written with its first commit, so a table
-- opened and left before it started has no row: `counters` keeps the largest number given
-- (`room_number`), written when it is given. Rooms created before have none (NULL); the
-- wire keeps the room id.
ALTER TABLE rooms ADD COLUMN number INTEGER;
CREATE TABLE counters (
    name TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
