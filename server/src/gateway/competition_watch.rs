//! A competition watched over the WebSocket (`watch_competition`, PROTOCOL §17.4): the
//! public page's live updates without a second connection or a long poll.
//!
//! One watch per connection (a second `watch_competition` replaces the first), so a watcher
//! costs one task and the receivers of its competition's current tables, however often a
//! client asks. The task sends `competition_changed` when the competition (or its partner,
//! which its team totals count) changed — the same change feed the long poll
//! `GET /api/competitions/changes` answers from — and when a table of its latest round
//! changes status (waiting → playing → over), which the feed does not carry.

use std::sync::Arc;

use futures_util::future::select_all;
use qipai_protocol::{RoomInfo, RoomStatus, ServerMsg, WireError};
use tokio::sync::watch;

use crate::app::App;
use crate::room::Outbox;

/// A running watch; dropping it ends it (when the connection closes, or another watch or
/// `unwatch_competition` replaces it).
#[derive(Debug)]
pub struct Watch {
    task: tokio::task::AbortHandle,
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Starts watching the competition `id` for the connection behind `outbox`; the watch
/// answers `ok` to `seq` once it is in place, so every change after the `ok` is told.
///
/// # Errors
/// `unknown_competition` when there is none with that id.
pub async fn start(
    shared: &Arc<App>,
    id: u64,
    seq: qipai_protocol::Seq,
    outbox: Outbox,
) -> Result<Watch, WireError> {
    shared.competitions.read(id, |_, _| ()).await?;
    let task = tokio::spawn(run(Arc::clone(shared), id, seq, outbox));
    Ok(Watch {
        task: task.abort_handle(),
    })
}

/// The rooms of the tables of the competition's latest round that are open, with the
/// status last seen.
async fn table_rooms(shared: &App, id: u64) -> Vec<(watch::Receiver<RoomInfo>, RoomStatus)> {
    let rooms: Vec<u64> = shared
        .competitions
        .read(id, |h, _| {
            let Some(last) = h.core.rounds.last() else {
                return Vec::new();
            };
            h.tables
                .iter()
                .filter(|((round, _), _)| *round == last.number)
                .filter_map(|(_, t)| t.room)
                .collect()
        })
        .await
        .unwrap_or_default();
    rooms
        .into_iter()
        .filter_map(|room| shared.lobby.get(room))
        .map(|h| {
            let mut info = h.info.clone();
            let status = info.borrow_and_update().status;
            (info, status)
        })
        .collect()
}

enum Woken {
    /// The change feed moved (`false`: it is gone).
    Feed(bool),
    /// The room at this index changed (`false`: it closed).
    Room(usize, bool),
    Stop,
}

async fn run(shared: Arc<App>, id: u64, seq: qipai_protocol::Seq, outbox: Outbox) {
    let comps = &shared.competitions;
    let mut feed = comps.watch();
    feed.borrow_and_update();
    let mut seen = comps.changed_at(id);
    let mut shutdown = shared.shutdown.clone();
    let mut rooms = table_rooms(&shared, id).await;
    if !outbox.send(&ServerMsg::Ok { seq }) {
        return;
    }
    loop {
        let woken = {
            let room_changed = async {
                if rooms.is_empty() {
                    std::future::pending::<(usize, bool)>().await
                } else {
                    let (r, i, _) =
                        select_all(rooms.iter_mut().map(|(rx, _)| Box::pin(rx.changed()))).await;
                    (i, r.is_ok())
                }
            };
            tokio::select! {
                r = feed.changed() => Woken::Feed(r.is_ok()),
                (i, open) = room_changed => Woken::Room(i, open),
                () = shutdown.wait() => Woken::Stop,
            }
        };
        let tell = match woken {
            Woken::Stop | Woken::Feed(false) => return,
            Woken::Feed(true) => {
                feed.borrow_and_update();
                let at = comps.changed_at(id);
                let tell = at > seen;
                if tell {
                    seen = at;
                    rooms = table_rooms(&shared, id).await;
                }
                tell
            }
            Woken::Room(i, false) => {
                rooms.swap_remove(i);
                false
            }
            Woken::Room(i, true) => match rooms.get_mut(i) {
                Some((rx, last)) => {
                    let status = rx.borrow_and_update().status;
                    let tell = status != *last;
                    *last = status;
                    tell
                }
                None => false,
            },
        };
        if tell {
            let version = *feed.borrow();
            let msg = ServerMsg::CompetitionChanged {
                competition_id: id,
                version,
            };
            if !outbox.send(&msg) {
                return;
            }
        }
    }
}
