-- qipai store, version 1 (PostgreSQL). Integers are i64; ids are the server's u64 ids.
CREATE TABLE rooms (
    id BIGINT PRIMARY KEY,
    game TEXT NOT NULL,
    options BYTEA NOT NULL,          -- the protocol's RoomOptions, MessagePack
    seed BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,    -- Unix time
    status TEXT NOT NULL,           -- open | finished | closed
    reason TEXT                     -- why a room was closed without a result
);
CREATE TABLE steps (
    room BIGINT NOT NULL,
    idx BIGINT NOT NULL,           -- 0, 1, 2, … in the order the room took them
    kind BIGINT NOT NULL,          -- 0 start, 1 action, 2 deadline, 3 forfeit, 4 reseat
    seat BIGINT NOT NULL,
    at_ms BIGINT NOT NULL,         -- the server's time line
    lag_ms BIGINT NOT NULL,
    action BYTEA,                    -- the protocol's GameAction, MessagePack (kind 1)
    event_seq BIGINT NOT NULL,     -- the room's event sequence number before the step
    PRIMARY KEY (room, idx)
);
CREATE TABLE seat_changes (
    id BIGSERIAL PRIMARY KEY,
    room BIGINT NOT NULL,
    seat BIGINT NOT NULL,
    player BIGINT,                 -- NULL: the seat was freed
    name TEXT NOT NULL,
    bot BIGINT NOT NULL,
    at_ms BIGINT NOT NULL
);
CREATE INDEX seat_changes_room ON seat_changes (room, id);
CREATE TABLE results (
    room BIGINT PRIMARY KEY,
    result TEXT NOT NULL,           -- JSON
    finished_ms BIGINT NOT NULL
);
CREATE TABLE sessions (
    token_hash BYTEA PRIMARY KEY,    -- SHA-256 of the resume token; the token itself is never stored
    player BIGINT NOT NULL,
    name TEXT NOT NULL,
    bot BIGINT NOT NULL,
    created_ms BIGINT NOT NULL
);
CREATE INDEX sessions_player ON sessions (player);
CREATE TABLE records (
    room BIGINT PRIMARY KEY,
    game TEXT NOT NULL,
    finished_ms BIGINT NOT NULL,
    body TEXT NOT NULL,             -- JSON
    pgn TEXT                        -- xiangqi only
);
CREATE TABLE record_players (
    room BIGINT NOT NULL,
    seat BIGINT NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (room, seat)
);
CREATE INDEX record_players_name ON record_players (name, room);
