// The page's pure parts, in node without a browser: the room's event bookkeeping
// (PROTOCOL.md §8.3), the xiangqi view updates (§9.5), FEN reading and clock text.

import { test } from "node:test";
import assert from "node:assert/strict";
import { RoomState } from "../../web/room.js";
import { applyEvent, parseBoard, formatClock, describeResult } from "../../web/xiangqi.js";

const START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

function xiangqiView() {
  return {
    game: "xiangqi", status: "waiting", fen: START, side_to_move: "red", legal_moves: [],
    in_check: false, last_move: null, moves: [],
    clocks: { red_ms: 1000, black_ms: 1000, running: null, server_time: 0 },
    time_control: "30+10", first_move_deadline: null, draw_offer: null, result: null,
  };
}

function roomWithSnapshot() {
  const sent = [];
  const room = new RoomState({ send: (m) => sent.push(m) }, { xiangqi: { applyEvent } });
  room.handle({ type: "joined", seq: 1, room_id: 7, game: "xiangqi", seat: 0 });
  room.handle({
    type: "snapshot", room_id: 7, event_seq: 2, server_time: 5, you: 0,
    seats: [{ player_id: 1, name: "Wu", connected: true }, null], view: xiangqiView(),
  });
  return { room, sent };
}

const ev = (event_seq, event) => ({ type: "event", room_id: 7, event_seq, server_time: 9, event });

test("events apply in order; old ones and other rooms' are ignored", () => {
  const { room, sent } = roomWithSnapshot();
  room.handle(ev(2, { game: "room", type: "left", seat: 0 }));
  assert.equal(room.seats[0].name, "Wu", "already in the snapshot");
  room.handle({ ...ev(3, { game: "room", type: "joined", seat: 1, player: { player_id: 2, name: "Li", connected: true } }), room_id: 8 });
  assert.equal(room.seats[1], null, "another room's event");
  room.handle(ev(3, { game: "room", type: "joined", seat: 1, player: { player_id: 2, name: "Li", connected: true } }));
  room.handle(ev(4, { game: "room", type: "away", seat: 1 }));
  assert.equal(room.seats[1].connected, false);
  assert.equal(room.lastSeq, 4);
  assert.deepEqual(sent, []);
});

test("a gap asks for a snapshot and drops events until it comes", () => {
  const { room, sent } = roomWithSnapshot();
  room.handle(ev(4, { game: "xiangqi", type: "draw_offered", by: "black" }));
  assert.deepEqual(sent, [{ type: "snapshot" }]);
  room.handle(ev(5, { game: "xiangqi", type: "draw_offered", by: "black" }));
  assert.equal(room.view.draw_offer, null);
  assert.equal(room.ready, false);
  room.handle(ev(6, { game: "xiangqi", type: "draw_offered", by: "black" }));
  assert.deepEqual(sent, [{ type: "snapshot" }], "one request at a time");
});

test("started, moved and over update the view as §9.5 says", () => {
  const view = xiangqiView();
  const clocks = { red_ms: 900, black_ms: 1000, running: "black", server_time: 50 };
  applyEvent(view, {
    type: "started", fen: START, side_to_move: "red", in_check: false, legal_moves: ["h2e2"], clocks,
    first_move_deadline: 30000,
  });
  assert.equal(view.status, "playing");
  applyEvent(view, { type: "draw_offered", by: "black" });
  applyEvent(view, {
    type: "moved", side: "red", iccs: "h2e2", chinese: "炮二平五", fen: START.replace(" w ", " b "),
    in_check: false, legal_moves: ["h9g7"], clocks, first_move_deadline: null, draw_offer: null,
  });
  assert.equal(view.side_to_move, "black");
  assert.equal(view.last_move, "h2e2");
  assert.equal(view.draw_offer, null, "a move lets the opponent's offer lapse");
  assert.deepEqual(view.moves, [{ iccs: "h2e2", chinese: "炮二平五" }]);
  applyEvent(view, { type: "over", result: { winner: "red", reason: "resignation" }, clocks });
  assert.equal(view.status, "over");
  assert.deepEqual(view.legal_moves, []);
  assert.equal(describeResult(view.result), "Red wins by resignation.");
});

test("the FEN's board puts Red's king on e0 and Black's on e9", () => {
  const board = parseBoard(START);
  assert.equal(board.size, 32);
  assert.equal(board.get("e0"), "K");
  assert.equal(board.get("e9"), "k");
  assert.equal(board.get("h2"), "C");
  assert.equal(board.get("a6"), "p");
});

test("clocks read m:ss, h:mm:ss, and tenths in the last 20 s", () => {
  assert.equal(formatClock(30 * 60000), "30:00");
  assert.equal(formatClock(90 * 60000 + 5000), "1:30:05");
  assert.equal(formatClock(19950), "19.9");
  assert.equal(formatClock(-5), "0.0");
});

test("the Tuolaji fold port: several cards at once (dealt_cards) to the receiver only", async () => {
  const { applyEvent: applyTuolaji } = await import("../../web/tuolaji.js");
  const view = { hand: [], card_counts: [0, 0, 0, 0], dealt: 0 };
  applyTuolaji(view, { type: "dealt_cards", seat: 1, cards: ["BJ", "Kh", "3s"], count: 3 }, 1);
  applyTuolaji(view, { type: "dealt_cards", seat: 3, cards: [], count: 2 }, 1);
  assert.deepEqual(view.hand, ["3s", "Kh", "BJ"]);
  assert.deepEqual(view.card_counts, [0, 3, 0, 2]);
  assert.equal(view.dealt, 5);
});

test("the Tuolaji fold port: cards in order, legal bids, the bottom, plays, captured points, turn", async () => {
  const { applyEvent: applyTuolaji } = await import("../../web/tuolaji.js");
  const view = {
    phase: { type: "waiting" }, hand_number: 0, hand: [], card_counts: [0, 0, 0, 0], dealt: 0,
    first_drawer: null, dealer: null, level_rank: null, trump: null, bids: [], current_trick: null,
    previous_trick: null, played: [], defenders_point_cards: [], defenders_points: 0,
    levels: [2, 2], bottom: null, auto: [null, null, null, null], last_result: null,
    round_ends_at: null, last_hand: false, outcome: null, hint: null, legal_bids: [],
  };
  const me = 1;
  applyTuolaji(view, { type: "hand_started", hand_number: 1, first_drawer: 1, dealer: 1, level_rank: "2", levels: [2, 2], round_ends_at: null }, me);
  applyTuolaji(view, { type: "turn", phase: { type: "dealing" }, hint: null }, me);
  for (const card of ["BJ", "Kh", "3s", "Td"]) applyTuolaji(view, { type: "dealt", seat: 1, card }, me);
  applyTuolaji(view, { type: "dealt", seat: 2, card: null }, me);
  assert.deepEqual(view.hand, ["3s", "Kh", "Td", "BJ"], "suits s h c d, then the jokers");
  assert.deepEqual(view.card_counts, [0, 4, 1, 0]);
  assert.equal(view.dealt, 5);
  applyTuolaji(view, { type: "legal_bids", seat: 1, bids: [["2s"], ["2s", "2s"]] }, me);
  assert.deepEqual(view.legal_bids, [["2s"], ["2s", "2s"]], "its own legal bids, as sent");
  applyTuolaji(view, { type: "legal_bids", seat: 2, bids: [] }, me);
  assert.deepEqual(view.legal_bids, [["2s"], ["2s", "2s"]], "another seat's changed nothing");
  applyTuolaji(view, { type: "bid", seat: 2, suit: "h", kind: "bid", cards: ["2h"] }, me);
  assert.equal(view.trump, null, "a bid does not fix the trump");
  applyTuolaji(view, { type: "bidding_closed", dealer: 1, trump: "h" }, me);
  applyTuolaji(view, { type: "bottom_taken", dealer: 1, cards: ["2c", "As"], count: 2 }, me);
  assert.deepEqual(view.hand, ["3s", "As", "Kh", "2c", "Td", "BJ"]);
  applyTuolaji(view, { type: "turn", phase: { type: "bottom", dealer: 1, deadline: 99 }, hint: { type: "put_back", cards: ["3s", "2c"] } }, me);
  assert.equal(view.hint.type, "put_back");
  applyTuolaji(view, { type: "bottom_put_back", dealer: 1, cards: ["3s", "2c"], count: 2 }, me);
  assert.deepEqual(view.bottom, ["3s", "2c"]);
  assert.equal(view.card_counts[1], 4);
  applyTuolaji(view, { type: "led", seat: 1, cards: ["Kh"], units: [["Kh"]] }, me);
  applyTuolaji(view, { type: "followed", seat: 2, cards: ["5h"] }, me);
  assert.deepEqual(view.played, ["Kh"]);
  assert.equal(view.current_trick.plays.length, 2);
  applyTuolaji(view, { type: "trick_won", winner: 2, points: 15, defenders_points: 15, captured: ["Kh", "5h"] }, me);
  assert.equal(view.current_trick, null);
  assert.equal(view.previous_trick.winner, 2);
  assert.deepEqual(view.defenders_point_cards, ["Kh", "5h"]);
  applyTuolaji(view, { type: "turn", phase: { type: "leading", seat: 2, deadline: 120 }, hint: null }, me);
  assert.deepEqual(view.phase, { type: "leading", seat: 2, deadline: 120 });
  assert.equal(view.hint, null);
});

// Chinese notation of a picked move (web/notation.js), the cases of
// games/src/xiangqi/notation/chinese.rs: 第1条1.1 files from each side's right, 7.5 the
// writing, tandem pieces named 前/中/后 and tandem pawns on two files by their file.
test("a picked move in Chinese notation", async () => {
  const { chineseMove } = await import("../../web/notation.js");
  const start = parseBoard(START);
  assert.equal(chineseMove(start, "h2e2"), "炮二平五");
  assert.equal(chineseMove(start, "b2b4"), "炮八进二");
  assert.equal(chineseMove(start, "h0g2"), "马二进三");
  assert.equal(chineseMove(start, "h9g7"), "马８进７");
  assert.equal(chineseMove(start, "f0e1"), "仕四进五");
  assert.equal(chineseMove(start, "d0e1"), "仕六进五");
  assert.equal(chineseMove(start, "e4e5"), null);
  // Two red cannons on file 二 (h): the front one is 前炮.
  const cannons = parseBoard("4k4/9/9/9/7C1/9/9/7C1/9/4K4 w - - 0 1");
  assert.equal(chineseMove(cannons, "h5e5"), "前炮平五");
  assert.equal(chineseMove(cannons, "h2h0"), "后炮退二");
  // Black pawns doubled on files ７ (g) and ３ (c): the file number replaces the piece.
  const pawns = parseBoard("4k4/9/9/9/2p3p2/2p3p2/9/9/9/4K4 b - - 0 1");
  assert.equal(chineseMove(pawns, "g5f5"), "后７平６");
  assert.equal(chineseMove(pawns, "c4c3"), "前３进１");
  // Three red pawns on one file: 前/中/后.
  const three = parseBoard("4k4/9/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1");
  assert.equal(chineseMove(three, "e6d6"), "中兵平六");
});
