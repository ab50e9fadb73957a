-- qipai store, version 2 (PostgreSQL): competitions and director sessions.
CREATE TABLE competitions (
    id BIGINT PRIMARY KEY,
    name TEXT NOT NULL,
    settings TEXT NOT NULL,         -- the server's settings JSON (event, rounds, seed, …)
    created_ms BIGINT NOT NULL     -- Unix time
);
CREATE TABLE competition_entries (
    competition BIGINT NOT NULL REFERENCES competitions (id),
    idx BIGINT NOT NULL,           -- the entry's number, from 0, in order of entry
    team TEXT NOT NULL,
    pair_number BIGINT,
    players TEXT NOT NULL,          -- JSON array of names
    contacts TEXT NOT NULL,         -- JSON, director only: never on a public page
    PRIMARY KEY (competition, idx)
);
CREATE TABLE competition_rounds (
    competition BIGINT NOT NULL REFERENCES competitions (id),
    number BIGINT NOT NULL,
    seed BIGINT NOT NULL,          -- the seed the round's lots came from
    bye BIGINT,                    -- the entry with the bye
    started_ms BIGINT NOT NULL,
    PRIMARY KEY (competition, number)
);
CREATE TABLE competition_pairings (
    competition BIGINT NOT NULL,
    round BIGINT NOT NULL,
    table_no BIGINT NOT NULL,
    first BIGINT NOT NULL,
    second BIGINT NOT NULL,
    room BIGINT,                   -- the table's room, once opened
    result TEXT,                    -- first_wins | draw | second_wins | first_forfeits | …
    note TEXT NOT NULL DEFAULT '',  -- lateness and the like, as recorded
    PRIMARY KEY (competition, round, table_no),
    FOREIGN KEY (competition, round) REFERENCES competition_rounds (competition, number)
);
CREATE TABLE competition_corrections (
    id BIGSERIAL PRIMARY KEY,
    competition BIGINT NOT NULL REFERENCES competitions (id),
    round BIGINT NOT NULL,
    table_no BIGINT NOT NULL,
    before TEXT,
    after TEXT NOT NULL,
    reason TEXT NOT NULL,
    author TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
CREATE TABLE director_sessions (
    token_hash BYTEA PRIMARY KEY,    -- SHA-256 of the session token
    director TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL
);
