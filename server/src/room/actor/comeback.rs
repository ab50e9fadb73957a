//! A room whose step the store refused comes back by itself. Its game has applied what the
//! store did not take, so it cannot go on from memory; nothing unsaved was shown (`outgoing`)
//! and the refused actions were answered `store_unavailable`. It closed then, and came back
//! only when the server restarted; one stalled commit (a disk that paused past the writer's
//! patience) thus ended every table whose step was in it. Now the room waits until the store
//! can be read, reads its own log back and rebuilds itself from it in place — the replay a
//! restart does — keeping its inbox, its place in the lobby and the connections of everybody
//! in it. They get `joined` and a snapshot as of the last saved step, as a player who
//! reconnects does, and play on from there; the commands that came meanwhile wait in the
//! inbox and are taken after.

use std::time::Duration;

use super::*;

/// How long the room waits before it asks the store for its log again.
const LOOK_AGAIN: Duration = Duration::from_millis(50);

impl<G: OnWire> Room<G> {
    /// Rebuilds the room from its log once the store gives it; `false` when it cannot come
    /// back (the server stops meanwhile, the store no longer has the room open, another node
    /// has taken it over, its log does not replay): it then closes as before.
    pub(super) async fn come_back(&mut self) -> bool {
        let Some((writer, epoch)) = self
            .journal
            .as_ref()
            .map(|j| (j.writer().clone(), j.epoch()))
        else {
            return false;
        };
        let mut stopping = self.shutdown.clone();
        let log = loop {
            match writer.store().room_log(self.id).await {
                Ok(Some(log)) => break log,
                Ok(None) => return false,
                Err(error) => tracing::warn!(%error, "the room's log cannot be read yet"),
            }
            tokio::select! {
                () = tokio::time::sleep(LOOK_AGAIN) => {}
                () = stopping.wait() => return false,
            }
        };
        if log.epoch != epoch {
            // Several nodes: another node has taken the room over (its steps were refused
            // for that); the room is theirs, and its players reconnect to them.
            self.revoked = true;
            return false;
        }
        // Every step the room handed in before was refused; the ones it hands in from now on
        // follow the log just read.
        writer.mend(self.id).await;
        let seated = self.seats.iter().flatten();
        let back: Vec<(PlayerId, Outbox)> = seated
            .filter_map(|o| Some((o.player, o.outbox.clone()?)))
            .collect();
        self.forget_game();
        self.journal = Some(Journal::reopen(writer, log));
        if !self.restore_with(&back) {
            return false;
        }
        tracing::info!("rebuilt from the store after a refused step");
        // A player the log does not seat (their join was in the refused commit) watches.
        for (player, outbox) in back {
            if self.seat_of(player).is_none() {
                self.spectators.push((player, outbox));
            }
        }
        let seated = self.seats.iter().enumerate();
        let seated = seated.filter_map(|(i, o)| Some((o.as_ref()?.outbox.clone()?, i as u8)));
        let everybody: Vec<(Outbox, Option<u8>)> = seated
            .map(|(outbox, seat)| (outbox, Some(seat)))
            .chain(self.spectators.iter().map(|(_, o)| (o.clone(), None)))
            .collect();
        for (outbox, seat) in everybody {
            self.send_joined(&outbox, None, seat);
        }
        self.publish_info();
        self.note_people();
        self.settle().await;
        true
    }

    /// Everything the game and its seats made of the room goes; what the room is (its inbox,
    /// options, place in the lobby and the budgets, spectators) stays.
    fn forget_game(&mut self) {
        self.game = (self.fresh)();
        for seat in &mut self.seats {
            *seat = None;
        }
        for kept in &mut self.reserved {
            *kept = None;
        }
        for left in &mut self.left_by {
            *left = None;
        }
        self.event_seq = 0;
        self.started = false;
        self.over_since = None;
        self.empty_since = None;
        self.left_by_everyone = false;
        self.out.clear();
        self.in_flight.clear();
    }
}
