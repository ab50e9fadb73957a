//! Xiangqi's glue for the bot client: the view follows the events through the one fold in
//! `games` ([`qipai_games::xiangqi::view::fold`]), exactly as a snapshot would show it.

crate::duel_table! {
    /// The xiangqi [`Table`](crate::Table): seat 0 plays Red, seat 1 Black.
    XiangqiTable for Xiangqi: xiangqi::{XiangqiView, XiangqiEvent, XiangqiAction},
    seats Red, Black,
    fold qipai_games::xiangqi::view::fold
}
