-- qipai store, version 1 (SQLite). Integers are i64; ids are the server's u64 ids.
CREATE TABLE rooms (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    options BLOB NOT NULL,          -- the protocol's RoomOptions, MessagePack
    seed INTEGER NOT NULL,
    created_ms INTEGER NOT NULL,    -- Unix time
    status TEXT NOT NULL,           -- open | finished | closed
    reason TEXT                     -- why a room was closed without a result
);
CREATE TABLE steps (
    room INTEGER NOT NULL,
    idx INTEGER NOT NULL,           -- 0, 1, 2, … in the order the room took them
    kind INTEGER NOT NULL,          -- 0 start, 1 action, 2 deadline, 3 forfeit, 4 reseat
    seat INTEGER NOT NULL,
    at_ms INTEGER NOT NULL,         -- the server's time line
    lag_ms INTEGER NOT NULL,
    action BLOB,                    -- the protocol's GameAction, MessagePack (kind 1)
    event_seq INTEGER NOT NULL,     -- the room's event sequence number before the step
    PRIMARY KEY (room, idx)
);
CREATE TABLE seat_changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    room INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player INTEGER,                 -- NULL: the seat was freed
    name TEXT NOT NULL,
    bot INTEGER NOT NULL,
    at_ms INTEGER NOT NULL
);
CREATE INDEX seat_changes_room ON seat_changes (room, id);
CREATE TABLE results (
    room INTEGER PRIMARY KEY,
    result TEXT NOT NULL,           -- JSON
    finished_ms INTEGER NOT NULL
);
CREATE TABLE sessions (
    token_hash BLOB PRIMARY KEY,    -- SHA-256 of the resume token; the token itself is never stored
    player INTEGER NOT NULL,
    name TEXT NOT NULL,
    bot INTEGER NOT NULL,
    created_ms INTEGER NOT NULL
);
CREATE INDEX sessions_player ON sessions (player);
CREATE TABLE records (
    room INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    finished_ms INTEGER NOT NULL,
    body TEXT NOT NULL,             -- JSON
    pgn TEXT                        -- xiangqi only
);
CREATE TABLE record_players (
    room INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (room, seat)
);
CREATE INDEX record_players_name ON record_players (name, room);
