//! An entry's player linked to an account (PROTOCOL.md §17.2b, docs/accounts.md "Entries of
//! competitions").
//!
//! A signed-in player proves their entry code once (`POST /api/entry/link`); the link is kept
//! with the competition (`competition_entry_accounts`, written by the competition's desk like
//! every other change), and from then on:
//! - the account's session takes the player's reserved seat without the code: the table's
//!   [`crate::room::ReservedSeat`] carries the account, and the room compares it with the
//!   session's, which the server learned from the account's cookie or token, never from
//!   what a client says;
//! - `GET /api/account/entries` lists the account's entries with their next table;
//! - the director's list of entries names the account beside the player (its id and name,
//!   nothing else; no public page shows it).
//!
//! One account per player, and one player per account in a competition (a person holds one
//! place). A link is undone by its account, by a director, by a new entry code for the
//! player (the link was proved with the old code, which may have leaked), and by deleting
//! the account.

use qipai_games::competition::EntryId;
use qipai_protocol::{ErrorCode, WireError};
use qipai_store::competition::{CompetitionWrite, LinkRow};
use qipai_store::unix_ms;
use serde_json::Value;

use super::{bad, view, Competitions, Held};

/// The account an entry's player is linked to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Linked {
    pub account: u64,
    /// The account's name, shown to directors beside the registered one.
    pub name: String,
}

/// A player linked or unlinked: the competition and the entry whose tables must learn it.
pub type EntryOf = (u64, u32);

fn unlink_write(competition: u64, (entry, player): (u32, usize)) -> CompetitionWrite {
    CompetitionWrite::Unlink {
        competition,
        index: entry,
        player: u32::try_from(player).unwrap_or(u32::MAX),
    }
}

impl Held {
    /// The player the account is linked to here, if any.
    pub fn linked_player(&self, account: u64) -> Option<(u32, usize)> {
        self.links
            .iter()
            .find_map(|(at, l)| (l.account == account).then_some(*at))
    }
}

impl Competitions {
    /// Links the player whose entry code hashes to `hash` to `account` (named `name`).
    /// Linking again to the same account changes nothing. Returns the competition and the
    /// entry.
    ///
    /// # Errors
    /// `bad_entry_code` when no player has that code; `entry_linked` when the player is
    /// linked to another account; `account_has_entry` when the account is linked to another
    /// player of the competition; `store_unavailable`.
    pub async fn link(&self, hash: &[u8], account: u64, name: &str) -> Result<EntryOf, WireError> {
        let no_code = || bad(ErrorCode::BadEntryCode, "no entry has that code");
        let (id, entry, player) = self
            .board
            .published()
            .values()
            .find_map(|h| {
                let (entry, player) = h.holder(hash)?;
                Some((h.id, entry, player))
            })
            .ok_or_else(no_code)?;
        let (hash, name) = (hash.to_vec(), name.to_owned());
        self.change(id, move |mine, _| {
            // The code may have been reissued since the board was read.
            if mine.code_hash(entry, player) != hash.as_slice() {
                return Err(no_code());
            }
            let at = (entry.0, player);
            match mine.links.get(&at) {
                Some(l) if l.account == account => return Ok(((id, entry.0), Vec::new())),
                Some(_) => {
                    return Err(bad(
                        ErrorCode::EntryLinked,
                        "this entry code's player is linked to another account: that account \
                         or a director must unlink it first",
                    ))
                }
                None => {}
            }
            if mine.linked_player(account).is_some() {
                return Err(bad(
                    ErrorCode::AccountHasEntry,
                    "your account is linked to another player of this competition",
                ));
            }
            let linked_ms = unix_ms();
            mine.links.insert(
                at,
                Linked {
                    account,
                    name: name.clone(),
                },
            );
            let write = CompetitionWrite::Link(LinkRow {
                competition: id,
                index: entry.0,
                player: u32::try_from(player).unwrap_or(u32::MAX),
                account,
                account_name: name,
                linked_ms,
            });
            Ok(((id, entry.0), vec![write]))
        })
        .await
    }

    /// Undoes the account's link in competition `id` (its own, as the account asks).
    ///
    /// # Errors
    /// `unknown_competition`; `not_found` when the account has no link there.
    pub async fn unlink_account(&self, id: u64, account: u64) -> Result<EntryOf, WireError> {
        self.change(id, move |mine, _| {
            let at = mine.linked_player(account).ok_or_else(|| {
                bad(
                    ErrorCode::NotFound,
                    "your account is linked to no player of this competition",
                )
            })?;
            mine.links.remove(&at);
            Ok(((id, at.0), vec![unlink_write(id, at)]))
        })
        .await
    }

    /// Undoes the link of player `player` of entry `entry` (a director's); whether there
    /// was one.
    ///
    /// # Errors
    /// `unknown_competition`; `bad_request_body` for no such entry or player.
    pub async fn unlink_player(
        &self,
        id: u64,
        entry: u32,
        player: usize,
    ) -> Result<bool, WireError> {
        self.change(id, move |mine, _| {
            let exists = mine
                .core
                .entries
                .iter()
                .find(|e| e.id.0 == entry)
                .is_some_and(|e| player < e.players.len());
            if !exists {
                return Err(bad(
                    ErrorCode::BadRequestBody,
                    format!("no player {player} in entry {entry}"),
                ));
            }
            let at = (entry, player);
            let writes = match mine.links.remove(&at) {
                Some(_) => vec![unlink_write(id, at)],
                None => Vec::new(),
            };
            Ok((!writes.is_empty(), writes))
        })
        .await
    }

    /// The account was deleted (its links are gone from the store with it, in the same
    /// transaction): its links are dropped here too. Returns the entries that had one.
    pub async fn forget_account(&self, account: u64) -> Vec<EntryOf> {
        let linked: Vec<u64> = self
            .board
            .published()
            .values()
            .filter(|h| h.linked_player(account).is_some())
            .map(|h| h.id)
            .collect();
        let mut out = Vec::new();
        for id in linked {
            let dropped = self
                .change(id, move |mine, _| {
                    let at = mine.linked_player(account);
                    if let Some(at) = at {
                        mine.links.remove(&at);
                    }
                    Ok((at.map(|(entry, _)| (id, entry)), Vec::new()))
                })
                .await;
            out.extend(dropped.ok().flatten());
        }
        out
    }

    /// Where each player linked to `account` plays next, as `POST /api/entry` answers for
    /// their code ([`view::next_table`]), by competition.
    pub fn entries_of(&self, account: u64, room: &view::RoomStatusOf) -> Vec<Value> {
        self.board
            .published()
            .values()
            .filter_map(|h| {
                let (entry, player) = h.linked_player(account)?;
                Some(view::next_table(h, EntryId(entry), player, room))
            })
            .collect()
    }
}
