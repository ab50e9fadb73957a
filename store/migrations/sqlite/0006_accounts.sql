-- qipai store, version 6 (SQLite): accounts, their sessions, and their ratings per game.
-- `name_key` is the name as the server compares names (normalised, case folded, look-alikes
-- mapped together): one account per key. A deleted account keeps its row (its id stays
-- taken) with its name and key freed.
CREATE TABLE accounts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    name_key TEXT UNIQUE,
    password_hash TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    deleted_ms INTEGER
);
CREATE TABLE account_sessions (
    token_hash BLOB PRIMARY KEY,
    account INTEGER NOT NULL REFERENCES accounts (id),
    created_ms INTEGER NOT NULL,
    expires_ms INTEGER NOT NULL
);
CREATE INDEX account_sessions_by_account ON account_sessions (account);
-- One row per account and game: `state` is the rating model's JSON (rating, deviation,
-- volatility, games); `rating` its rating rounded, for the leaderboards.
CREATE TABLE ratings (
    account INTEGER NOT NULL REFERENCES accounts (id),
    game TEXT NOT NULL,
    rating INTEGER NOT NULL,
    state TEXT NOT NULL,
    updated_ms INTEGER NOT NULL,
    PRIMARY KEY (account, game)
);
CREATE INDEX ratings_by_game ON ratings (game, rating DESC);
-- Every rated game's result for each of its accounts: the rating after it.
CREATE TABLE rating_history (
    account INTEGER NOT NULL REFERENCES accounts (id),
    game TEXT NOT NULL,
    room INTEGER NOT NULL,
    at_ms INTEGER NOT NULL,
    rating INTEGER NOT NULL,
    PRIMARY KEY (account, game, room)
);
CREATE INDEX rating_history_by_time ON rating_history (account, game, at_ms);
