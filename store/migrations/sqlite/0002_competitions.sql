-- qipai store, version 2 (SQLite): competitions and director sessions.
CREATE TABLE competitions (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    settings TEXT NOT NULL,         -- the server's settings JSON (event, rounds, seed, …)
    created_ms INTEGER NOT NULL     -- Unix time
);
CREATE TABLE competition_entries (
    competition INTEGER NOT NULL REFERENCES competitions (id),
    idx INTEGER NOT NULL,           -- the entry's number, from 0, in order of entry
    team TEXT NOT NULL,
    pair_number INTEGER,
    players TEXT NOT NULL,          -- JSON array of names
    contacts TEXT NOT NULL,         -- JSON, director only: never on a public page
    PRIMARY KEY (competition, idx)
);
CREATE TABLE competition_rounds (
    competition INTEGER NOT NULL REFERENCES competitions (id),
    number INTEGER NOT NULL,
    seed INTEGER NOT NULL,          -- the seed the round's lots came from
    bye INTEGER,                    -- the entry with the bye
    started_ms INTEGER NOT NULL,
    PRIMARY KEY (competition, number)
);
CREATE TABLE competition_pairings (
    competition INTEGER NOT NULL,
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    first INTEGER NOT NULL,
    second INTEGER NOT NULL,
    room INTEGER,                   -- the table's room, once opened
    result TEXT,                    -- first_wins | draw | second_wins | first_forfeits | …
    note TEXT NOT NULL DEFAULT '',  -- lateness and the like, as recorded
    PRIMARY KEY (competition, round, table_no),
    FOREIGN KEY (competition, round) REFERENCES competition_rounds (competition, number)
);
CREATE TABLE competition_corrections (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    competition INTEGER NOT NULL REFERENCES competitions (id),
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    before TEXT,
    after TEXT NOT NULL,
    reason TEXT NOT NULL,
    author TEXT NOT NULL,
    at_ms INTEGER NOT NULL
);
CREATE TABLE director_sessions (
    token_hash BLOB PRIMARY KEY,    -- SHA-256 of the session token
    director TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    expires_ms INTEGER NOT NULL
);
