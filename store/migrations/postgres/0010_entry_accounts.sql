-- qipai store, version 10 (PostgreSQL): a competition's entry player linked to an account. The
-- player proved their entry code once while signed in; from then on the account's session
-- takes the player's reserved seat without the code, and the account lists the entry.
-- One account per entry player (the key), one entry player per account in a competition
-- (the unique pair). Deleting the account deletes its links (in the same transaction).
CREATE TABLE competition_entry_accounts (
    competition BIGINT NOT NULL,
    idx BIGINT NOT NULL,           -- the entry
    player BIGINT NOT NULL,        -- the player's place in the entry (0 or 1 for a pair)
    account BIGINT NOT NULL REFERENCES accounts (id),
    linked_ms BIGINT NOT NULL,
    PRIMARY KEY (competition, idx, player),
    UNIQUE (competition, account),
    FOREIGN KEY (competition, idx) REFERENCES competition_entries (competition, idx)
);
CREATE INDEX competition_entry_accounts_by_account ON competition_entry_accounts (account);
