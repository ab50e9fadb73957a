//! Draughts' glue for the bot client: the view follows the events through the one fold in
//! `games` ([`qipai_games::draughts::view::fold`]), exactly as a snapshot would show it.

crate::duel_table! {
    /// The draughts [`Table`](crate::Table): seat 0 plays White, seat 1 Black.
    DraughtsTable for Draughts: draughts::{DraughtsView, DraughtsEvent, DraughtsAction},
    seats White, Black,
    fold qipai_games::draughts::view::fold
}
