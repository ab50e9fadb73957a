//! Error codes: the stable strings clients branch on.
//!
//! Every refusal the server sends carries one of these in `error.code`, with a human
//! `message` beside it. A code is never reused for another meaning and never renamed; the
//! test at the bottom pins the whole list, so changing one is a deliberate act.

use serde::{Deserialize, Serialize};

macro_rules! error_codes {
    ($($(#[$doc:meta])* $variant:ident = $wire:literal,)*) => {
        /// A stable error code. On the wire it is the snake_case string shown with each variant.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum ErrorCode {
            $($(#[$doc])* #[serde(rename = $wire)] $variant,)*
        }

        impl ErrorCode {
            /// Every code, in declaration order.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant,)*];

            /// The code as it appears on the wire.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $wire,)*
                }
            }
        }
    };
}

error_codes! {
    // --- decoding a frame ---
    /// The frame is not valid MessagePack.
    Malformed = "malformed",
    /// Valid MessagePack, but not the shape of any message (missing or mistyped field).
    BadShape = "bad_shape",
    /// A `type` this server does not know.
    UnknownType = "unknown_type",
    /// A text frame; the protocol is binary MessagePack only.
    TextFrame = "text_frame",
    /// The frame is larger than the configured maximum.
    FrameTooLarge = "frame_too_large",

    // --- the session ---
    /// `hello` named a protocol version this server does not speak.
    ProtocolVersion = "protocol_version",
    /// A message other than `hello` came before `hello`.
    HelloFirst = "hello_first",
    /// A second `hello` on the same connection.
    AlreadyHello = "already_hello",
    /// The resume token is unknown or its grace period is over.
    BadResumeToken = "bad_resume_token",
    /// Too many messages: the rate limit was exceeded and this one was dropped.
    RateLimited = "rate_limited",
    /// Too many bad messages: the connection is being closed.
    Closing = "closing",
    /// The same session (its resume token) said hello on another connection, which now holds
    /// its seat: this connection is closed, and a client should not reconnect by itself (the
    /// two would take the seat back and forth) but offer its player to take it back.
    PlayingElsewhere = "playing_elsewhere",
    /// The name is blank, longer than 32 characters, has control or invisible format
    /// characters, or has the form of a server bot's name ("Bot 1").
    BadName = "bad_name",

    // --- the lobby ---
    /// No room with that id.
    NoSuchRoom = "no_such_room",
    /// The seat asked for is taken or does not exist.
    SeatTaken = "seat_taken",
    /// The room has no free seat.
    RoomFull = "room_full",
    /// Already seated or watching somewhere; leave first.
    AlreadyInRoom = "already_in_room",
    /// Not in a room, so there is nothing to leave, act on or snapshot.
    NotInRoom = "not_in_room",
    /// The room options are invalid (named in the message).
    BadOptions = "bad_options",
    /// The action is for another game than the room's.
    WrongGame = "wrong_game",
    /// A spectator tried to act.
    NotSeated = "not_seated",
    /// The room has closed (its game ended and it was let go, or everybody left).
    RoomClosed = "room_closed",
    /// The game has not started yet (seats are still empty).
    NotStarted = "not_started",
    /// The game is over; no more actions.
    GameOver = "game_over",
    /// The server is busy (a room's inbox is full); try again.
    Busy = "busy",

    // --- xiangqi ---
    /// Not this side's turn to move.
    NotYourTurn = "not_your_turn",
    /// The move text is not ICCS (`h2e2`).
    BadNotation = "bad_notation",
    /// The move breaks the rules (the message says why).
    IllegalMove = "illegal_move",
    /// No draw offer to accept or decline.
    NoDrawOffer = "no_draw_offer",
    /// Draw offers are rate-limited per side.
    DrawOfferLimit = "draw_offer_limit",
    /// Offering a draw while one's own offer stands, or answering one's own offer.
    OwnDrawOffer = "own_draw_offer",

    // --- tuolaji ---
    /// A play with no card.
    EmptyPlay = "empty_play",
    /// Cards played or shown that the seat does not hold.
    CardsNotHeld = "cards_not_held",
    /// A lead mixing trumps and suits, or two suits.
    MixedTypes = "mixed_types",
    /// A declared throw unit that is not a single, pair, triple or tractor.
    NotAUnit = "not_a_unit",
    /// A declared throw structure that does not hold exactly the cards played.
    DecompositionMismatch = "decomposition_mismatch",
    /// A follow with a different number of cards than the lead.
    WrongCardCount = "wrong_card_count",
    /// A follow that does not play the led type as far as the follower holds it.
    MustFollowType = "must_follow_type",
    /// A follow that does not match the lead's structure as closely as it could.
    MustMatchStructure = "must_match_structure",

    // --- tuolaji: bids, bottom, turns ---
    /// A bid that shows no level-rank cards, mixed cards, or another suit than the bidder's own.
    BadBid = "bad_bid",
    /// A bid or counter-bid with too few cards to stand over the current bid.
    BidTooWeak = "bid_too_weak",
    /// A bid after bidding closed.
    BiddingClosed = "bidding_closed",
    /// Closing the bidding before its window is over.
    BiddingOpen = "bidding_open",
    /// A bottom exchange that does not put back exactly six held cards.
    BadBottom = "bad_bottom",
    /// An action that does not fit this moment of the hand (leading while following, …).
    WrongPhase = "wrong_phase",
    /// A card or suit that is not in the notation (`Ts`, `SJ`; suits `s h c d`).
    BadCard = "bad_card",

    // --- budgets (PROTOCOL.md §13) ---
    /// Too many connections, in total or from this address: this one is closed.
    TooManyConnections = "too_many_connections",
    /// Too many rooms open, in total, from this address or by this session.
    TooManyRooms = "too_many_rooms",
    /// Too many server bots playing: none can be seated now.
    TooManyBots = "too_many_bots",
    /// The server holds as many player sessions as it may: a new `hello` (without a resume
    /// token) is refused and the connection closed; resuming a session still works.
    TooManySessions = "too_many_sessions",
    /// No answer to the server's ping (or a frame left unfinished) in time: closing.
    TimedOut = "timed_out",
    // --- draughts ---
    /// A plain move while a capture is possible: capturing is compulsory (第六条1).
    CaptureRequired = "capture_required",
    /// A capture taking fewer pieces than the most that can be taken (第六条12).
    MajorityCapture = "majority_capture",
    /// A capture that stops while the piece can still take more (第六条5–6, 第七条4.9).
    CaptureIncomplete = "capture_incomplete",
    /// A man moving backward without capturing.
    ManBackward = "man_backward",
    /// A declared throw structure in which two or more units together form one unit.
    DeclarationSplitsUnit = "declaration_splits_unit",
    /// A throw that can be split into units in more than one valid way, led undeclared: the
    /// leader must declare one (the message, and the error's `splits`, list them).
    DeclareStructure = "declare_structure",

    // --- competitions ---
    /// 四1 不得兼项: the player is already entered in the other event.
    AlreadyEntered = "already_entered",
    /// A Tuolaji entry is a pair, a xiangqi entry one player (一).
    WrongEntrySize = "wrong_entry_size",
    /// The same player twice in one event.
    DuplicatePlayer = "duplicate_player",
    /// Every round of the competition is already paired.
    NoRoundLeft = "no_round_left",
    /// The previous round still has a table without a result.
    RoundUnfinished = "round_unfinished",
    /// A director's result for a table whose game is still being played, or the next round
    /// while a table of this one is still open: refused unless the director overrides with
    /// a reason (the override ends the game at the table).
    TableLive = "table_live",
    /// Fewer than two entries to pair.
    TooFewEntries = "too_few_entries",
    /// No such table in that round.
    UnknownTable = "unknown_table",
    /// An arbiter's correction without a reason.
    MissingReason = "missing_reason",
    /// The registration-form CSV has a bad line (the message names it).
    BadEntryForm = "bad_entry_form",

    // --- the store ---
    /// The store could not save the action after its retries: it was not applied, and the
    /// room closes (it reopens as of its last saved action when the server restarts).
    StoreUnavailable = "store_unavailable",

    // --- competitions over HTTP ---
    /// A director's action without a valid director session (none, unknown or expired).
    DirectorRequired = "director_required",
    /// A director login with a wrong name or password.
    BadCredentials = "bad_credentials",
    /// No competition with that id.
    UnknownCompetition = "unknown_competition",
    /// A request body that is not the JSON (or CSV) the endpoint takes.
    BadRequestBody = "bad_request_body",
    /// Entries are closed: the competition's first round is paired.
    EntriesClosed = "entries_closed",
    /// A competition's table: the seat is reserved for another entrant (or bots are kept out).
    SeatReserved = "seat_reserved",

    // --- several nodes ---
    /// The room's node lost its lease (it could not reach Redis in time): the action was
    /// not applied; another node takes the room over, and the client reconnects with its token.
    LeaseLost = "lease_lost",
    /// An internal hello (on `/node`) without the cluster's secret; the connection closes.
    BadNodeSecret = "bad_node_secret",
    /// The node that holds the room could not be reached to forward the request; try again.
    NodeUnavailable = "node_unavailable",
    /// Too many failed director logins from this address: wait (the message says how long).
    TooManyAttempts = "too_many_attempts",

    // --- entry codes ---
    /// A competition table's seat is taken only with its entrant's entry code: the `join`
    /// had none, or one that is no entrant's of this table. Repeated wrong codes from one
    /// address are answered `too_many_attempts` for a while.
    BadEntryCode = "bad_entry_code",
    /// Told without `seq` to everybody at a competition's table forfeited by absence (an
    /// entry not there when the lateness limit passed): the result is recorded, the room
    /// closes (`left` follows) and no game is played there.
    TableForfeited = "table_forfeited",
    /// Told without `seq` to everybody at a competition's table whose result a director
    /// recorded over its game (an override, with a reason): the game ends there, the room
    /// closes (`left` follows) and the message gives the director's reason.
    TableClosed = "table_closed",

    // --- the table's pace ---
    /// A lead while the finished trick is still on the table (the `trick_pause` phase,
    /// `trick_pause_ms`): nobody may lead until the phase's `leads_at`.
    TrickOnTable = "trick_on_table",

    // --- HTTP ---
    /// No resource at that path (HTTP 404).
    NotFound = "not_found",
    /// The path does not take that method; `Allow` lists the ones it takes (HTTP 405).
    MethodNotAllowed = "method_not_allowed",
    /// A request the server cannot take as sent (a plain `GET /ws`, an unreadable path
    /// parameter; HTTP 400).
    BadRequest = "bad_request",

    // --- a competition's day ---
    /// Starting a competition's round that has already started (HTTP 409).
    RoundStarted = "round_started",
    /// Undoing a competition's round of which a table has a result (HTTP 409): a result is
    /// changed only by a correction.
    RoundRecorded = "round_recorded",
    // --- passwords and accounts ---
    /// Every place of the password-hashing pool and its queue are taken: try again in a
    /// moment (HTTP 429 with `Retry-After`).
    PasswordChecksBusy = "password_checks_busy",
    /// The name, or a look-alike of it, belongs to a registered account (HTTP 409 on sign-up;
    /// a guest's `hello` is refused with it and closed).
    NameTaken = "name_taken",
    /// An account's action without a valid account session (none, unknown, expired or
    /// signed out; HTTP 401).
    AccountRequired = "account_required",
    /// A write authenticated by a cookie sent from another site's page (its `Origin` or
    /// `Sec-Fetch-Site` says so; HTTP 403).
    CrossOrigin = "cross_origin",
    /// A new password shorter than 8 characters or longer than 1024 bytes (HTTP 400).
    WeakPassword = "weak_password",
    /// The entry code's player is linked to another account (HTTP 409): that account or a
    /// director must unlink it first.
    EntryLinked = "entry_linked",
    /// The account is linked to another player of the same competition (HTTP 409): a person
    /// holds one place in a competition.
    AccountHasEntry = "account_has_entry",
}

/// What a client needs to say a refusal in the player's own language: every
/// field is optional and left out of the MessagePack map when empty, so old clients see
/// the same `error` as before. PROTOCOL.md lists which codes fill which fields; the English
/// `message` beside them stays for developers and logs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorDetails {
    /// Which refusal of the code it is, when a code has several (`must_play_all`,
    /// `leaves_king_in_check`, …): a stable snake_case key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The rules' article, as the rules pages number it (`第十一条2`, `2.2`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub article: Option<String>,
    /// Tuolaji: the card type concerned, `trump` or a suit letter (`s h c d`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card_type: Option<String>,
    /// Tuolaji: the unit kinds required, strongest first: `single`, `pair`, `triple`,
    /// `pair_tractor:K`, `triple_tractor:K` (K slots long).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub units: Option<Vec<String>>,
    /// Tuolaji: the cards that matter (the ones the player holds of the led type, the ones
    /// not held, the unit a declaration splits), in the card notation (`9h`, `SJ`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cards: Option<Vec<crate::card::Card>>,
    /// How many were required (cards, bid cards).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<u32>,
    /// How many there were (played, held, shown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
    /// A limit that was reached (messages a second, moves between draw offers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
    /// The seat whose turn it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    /// Xiangqi: the side concerned (`red`, `black`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// Xiangqi: the points concerned, in ICCS (`h2`): the move's start and end, or the
    /// blocking point.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub squares: Option<Vec<String>>,
    /// A refused file (the registration form): the line concerned, from 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// A refused file: the column concerned (`department`, `event`, `pair`, `name`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// A refused file: what the field held.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

impl ErrorDetails {
    /// Details naming only the refusal and its article.
    pub fn rule(reason: &str, article: &str) -> ErrorDetails {
        ErrorDetails {
            reason: Some(reason.to_owned()),
            article: (!article.is_empty()).then(|| article.to_owned()),
            ..ErrorDetails::default()
        }
    }
}

/// An error as it travels: a stable code and a sentence for people.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireError {
    pub code: ErrorCode,
    pub message: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The list is append-only: a removed or renamed code breaks clients.
    #[test]
    fn codes_are_pinned() {
        let wire: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(
            wire,
            [
                "malformed",
                "bad_shape",
                "unknown_type",
                "text_frame",
                "frame_too_large",
                "protocol_version",
                "hello_first",
                "already_hello",
                "bad_resume_token",
                "rate_limited",
                "closing",
                "playing_elsewhere",
                "bad_name",
                "no_such_room",
                "seat_taken",
                "room_full",
                "already_in_room",
                "not_in_room",
                "bad_options",
                "wrong_game",
                "not_seated",
                "room_closed",
                "not_started",
                "game_over",
                "busy",
                "not_your_turn",
                "bad_notation",
                "illegal_move",
                "no_draw_offer",
                "draw_offer_limit",
                "own_draw_offer",
                "empty_play",
                "cards_not_held",
                "mixed_types",
                "not_a_unit",
                "decomposition_mismatch",
                "wrong_card_count",
                "must_follow_type",
                "must_match_structure",
                "bad_bid",
                "bid_too_weak",
                "bidding_closed",
                "bidding_open",
                "bad_bottom",
                "wrong_phase",
                "bad_card",
                "too_many_connections",
                "too_many_rooms",
                "too_many_bots",
                "too_many_sessions",
                "timed_out",
                "capture_required",
                "majority_capture",
                "capture_incomplete",
                "man_backward",
                "declaration_splits_unit",
                "declare_structure",
                "already_entered",
                "wrong_entry_size",
                "duplicate_player",
                "no_round_left",
                "round_unfinished",
                "table_live",
                "too_few_entries",
                "unknown_table",
                "missing_reason",
                "bad_entry_form",
                "store_unavailable",
                "director_required",
                "bad_credentials",
                "unknown_competition",
                "bad_request_body",
                "entries_closed",
                "seat_reserved",
                "lease_lost",
                "bad_node_secret",
                "node_unavailable",
                "too_many_attempts",
                "bad_entry_code",
                "table_forfeited",
                "table_closed",
                "trick_on_table",
                "not_found",
                "method_not_allowed",
                "bad_request",
                "round_started",
                "round_recorded",
                "password_checks_busy",
                "name_taken",
                "account_required",
                "cross_origin",
                "weak_password",
                "entry_linked",
                "account_has_entry",
            ]
        );
    }

    /// Empty fields are left out of the map: an error without details is the old error.
    #[test]
    fn details_leave_out_empty_fields() {
        let details = ErrorDetails {
            units: Some(vec!["pair".into()]),
            ..ErrorDetails::rule("must_match_structure", "第十一条2")
        };
        let bytes = rmp_serde::to_vec_named(&details).unwrap();
        let map: std::collections::BTreeMap<String, serde::de::IgnoredAny> =
            rmp_serde::from_slice(&bytes).unwrap();
        let keys: Vec<&str> = map.keys().map(String::as_str).collect();
        assert_eq!(keys, ["article", "reason", "units"]);
        let back: ErrorDetails = rmp_serde::from_slice(&bytes).unwrap();
        assert_eq!(back, details);
    }

    #[test]
    fn codes_are_unique_and_serialize_as_their_string() {
        let mut seen = std::collections::HashSet::new();
        for code in ErrorCode::ALL {
            assert!(seen.insert(code.as_str()), "{code:?} reused");
            let bytes = rmp_serde::to_vec(code).unwrap();
            let back: String = rmp_serde::from_slice(&bytes).unwrap();
            assert_eq!(back, code.as_str());
        }
    }
}
