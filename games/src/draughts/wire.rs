//! Draughts as a client sees it: the wire types live in `qipai_protocol::draughts`, re-used
//! here as xiangqi's are.

pub use qipai_protocol::draughts::{
    Clocks, DraughtsAction, DraughtsEvent, DraughtsOptions, DraughtsView, GameResult, Status,
    ToMove,
};
