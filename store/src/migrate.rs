//! Versioned migrations: one SQL file per version and backend under `migrations/`, applied
//! in order at start-up; the applied version is kept in `schema_version`.

/// A migration: its version and its SQL for each backend.
pub struct Migration {
    pub version: u32,
    pub sqlite: &'static str,
    pub postgres: &'static str,
}

/// Every migration, oldest first. A new version is a new pair of files added here; a file
/// once released never changes.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        sqlite: include_str!("../migrations/sqlite/0001_init.sql"),
        postgres: include_str!("../migrations/postgres/0001_init.sql"),
    },
    Migration {
        version: 2,
        sqlite: include_str!("../migrations/sqlite/0002_competitions.sql"),
        postgres: include_str!("../migrations/postgres/0002_competitions.sql"),
    },
    Migration {
        version: 3,
        sqlite: include_str!("../migrations/sqlite/0003_fencing.sql"),
        postgres: include_str!("../migrations/postgres/0003_fencing.sql"),
    },
    Migration {
        version: 4,
        sqlite: include_str!("../migrations/sqlite/0004_step_log.sql"),
        postgres: include_str!("../migrations/postgres/0004_step_log.sql"),
    },
    Migration {
        version: 5,
        sqlite: include_str!("../migrations/sqlite/0005_room_numbers.sql"),
        postgres: include_str!("../migrations/postgres/0005_room_numbers.sql"),
    },
    Migration {
        version: 6,
        sqlite: include_str!("../migrations/sqlite/0006_accounts.sql"),
        postgres: include_str!("../migrations/postgres/0006_accounts.sql"),
    },
    Migration {
        version: 7,
        sqlite: include_str!("../migrations/sqlite/0007_match_games.sql"),
        postgres: include_str!("../migrations/postgres/0007_match_games.sql"),
    },
    Migration {
        version: 8,
        sqlite: include_str!("../migrations/sqlite/0008_bounds.sql"),
        postgres: include_str!("../migrations/postgres/0008_bounds.sql"),
    },
    Migration {
        version: 9,
        sqlite: include_str!("../migrations/sqlite/0009_seat_accounts.sql"),
        postgres: include_str!("../migrations/postgres/0009_seat_accounts.sql"),
    },
    Migration {
        version: 10,
        sqlite: include_str!("../migrations/sqlite/0010_entry_accounts.sql"),
        postgres: include_str!("../migrations/postgres/0010_entry_accounts.sql"),
    },
    Migration {
        version: 11,
        sqlite: include_str!("../migrations/sqlite/0011_one_row_an_action.sql"),
        postgres: include_str!("../migrations/postgres/0011_one_row_an_action.sql"),
    },
    Migration {
        version: 12,
        sqlite: include_str!("../migrations/sqlite/0012_fence_per_batch.sql"),
        postgres: include_str!("../migrations/postgres/0012_fence_per_batch.sql"),
    },
];

/// The latest version.
pub fn latest() -> u32 {
    MIGRATIONS.last().map_or(0, |m| m.version)
}

/// Creates the version table if missing (same SQL on both backends).
pub const VERSION_TABLE: &str =
    "CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL, applied_ms BIGINT NOT NULL)";
