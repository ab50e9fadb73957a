//! What the room says, held until what it says is saved: one rule for every message that
//! leaves a room with a store — an event, a snapshot, `joined`, an action's `ok`, an answer
//! to the lobby — nothing is sent before the steps it shows are committed. A client never
//! sees what a crash could take back (a timer step, a join, the start, a leave): the room
//! queues its output here while it handles its commands and timers, hands its steps to the
//! store ([`Room::hand_over`]) with that output beside them as a [`Pending`] commit, and lets
//! the output go only once that commit is done, in the order it was said. The room does not
//! wait meanwhile: it takes its next commands while earlier commits are in flight, and their
//! output is released strictly in order, each after its own commit.
//!
//! Several nodes: the output goes only while the node still holds its lease by its own
//! monotonic clock, with a tenth of the lease to spare (`fence`). Without it the room holds
//! its output (and its steps) until the node holds the lease again; if another node took
//! the room over meanwhile, the room sends nothing more and closes its connections (the
//! players reconnect to the new owner).

use super::*;

/// How often a room without its node's lease looks again (a renewal comes every third of
/// the lease).
const LEASE_POLL: std::time::Duration = std::time::Duration::from_millis(5);

/// A commit handed to the store and not acknowledged yet, with what the room said before
/// it handed it over.
pub(super) struct Pending {
    /// Resolves once the store has committed the steps (`false`: it could not).
    pub(super) ack: qipai_store::writer::Ack,
    /// Sent once `ack` says the steps are committed, after every earlier commit's output.
    pub(super) out: Vec<Out>,
}

/// One message held for the commit.
pub(super) enum Out {
    /// Encoded bytes for one connection (an event encoded once for everybody).
    Frame(Outbox, Bytes),
    /// A message for one connection (a snapshot, `joined`, a refusal).
    Msg(Outbox, Box<ServerMsg>),
    /// An accepted action's `ok`: answered `store_unavailable` instead if its commit fails.
    Ok {
        outbox: Outbox,
        seq: Seq,
        /// When the action arrived (for the action latency histogram).
        arrived: tokio::time::Instant,
    },
    /// An answer to the rest of the server (the seat a join took, a leave done): given
    /// after the commit, so the lobby and the player's session learn of it no sooner than
    /// the player does. Dropped (the asker hears the room closed) if the commit fails.
    Reply(Box<dyn FnOnce() + Send>),
}

impl<G: OnWire> Room<G> {
    /// Holds `msg` for `outbox` until the commit.
    pub(super) fn say(&mut self, outbox: &Outbox, msg: ServerMsg) {
        self.out.push(Out::Msg(outbox.clone(), Box::new(msg)));
    }

    /// Holds an answer to the rest of the server until the commit.
    pub(super) fn reply<T: Send + 'static>(&mut self, reply: oneshot::Sender<T>, answer: T) {
        self.out.push(Out::Reply(Box::new(move || {
            // The asker may have gone meanwhile; then nobody needs the answer.
            let _ = reply.send(answer);
        })));
    }

    /// Whether this node may write and send for the room now: alone always; with several
    /// nodes once its lease has its margin left by its own clock, waiting for a renewal if
    /// need be. `false` when another node took the room over meanwhile (or the server
    /// stops while it waits).
    pub(super) async fn may_send(&mut self) -> bool {
        let Some(fence) = self.fence.clone() else {
            return true;
        };
        let mut stopping = self.shutdown.clone();
        loop {
            if fence.take_taken(self.id) {
                return false;
            }
            if fence.ok_to_send() {
                return true;
            }
            tokio::select! {
                () = tokio::time::sleep(LEASE_POLL) => {}
                () = stopping.wait() => return false,
            }
        }
    }

    /// Everything held, oldest first: the commits in flight, then what was said since.
    fn take_held(&mut self) -> impl Iterator<Item = Out> {
        let in_flight = std::mem::take(&mut self.in_flight);
        let said = std::mem::take(&mut self.out);
        in_flight.into_iter().flat_map(|p| p.out).chain(said)
    }

    /// A commit failed: nothing held goes out but the refusals of the actions it and every
    /// later commit carried (no silent loss: nothing unsaved is acknowledged; the writer
    /// refuses a room's steps after one of them failed, so none of the later ones is saved).
    pub(super) fn refuse_held(&mut self) {
        for out in self.take_held() {
            match out {
                Out::Ok { outbox, seq, .. } => {
                    outbox.send(&error(
                        seq,
                        ErrorCode::StoreUnavailable,
                        "the store did not confirm this action: the room goes back to its \
                         last saved step and sends a snapshot of it (play on from there)",
                    ));
                }
                Out::Frame(..) | Out::Msg(..) | Out::Reply(_) => {}
            }
        }
    }

    /// Another node took the room over: nothing held goes out but refusals (an action
    /// refused with `lease_lost` shows no step), nothing more is written, and the room
    /// stops without a word (its connections are closed; the players reconnect to the
    /// room's new owner).
    pub(super) fn lease_gone(&mut self) {
        tracing::warn!("another node took the room over: nothing more is sent for it here");
        for out in self.take_held() {
            if let Out::Msg(outbox, msg) = out {
                if matches!(*msg, ServerMsg::Error { .. }) {
                    outbox.send(&msg);
                }
            }
        }
        self.revoked = true;
    }
}

/// A commit is done: what was held for it goes out, in order. `true` when an action's `ok`
/// went (a clock it started runs from now). Drained in place: the buffer keeps its capacity
/// for later commands instead of being allocated again for each.
pub(super) fn send_out(out: &mut Vec<Out>) -> bool {
    let mut answered = false;
    for out in out.drain(..) {
        match out {
            Out::Frame(outbox, bytes) => {
                outbox.send_frame(bytes);
            }
            Out::Msg(outbox, msg) => {
                outbox.send(&msg);
            }
            Out::Ok {
                outbox,
                seq,
                arrived,
            } => {
                outbox.send_ok(seq, arrived);
                answered = true;
            }
            Out::Reply(reply) => reply(),
        }
    }
    answered
}
