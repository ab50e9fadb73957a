// The draughts page's pure parts in node: the view updates (the port of
// `qipai_games::draughts::view::fold`), PDN FEN reading, square geometry, and how clicks
// narrow the server's legal sequences (a multi-capture entered square by square).

import { test } from "node:test";
import assert from "node:assert/strict";
import { applyEvent, parseFen, narrow, pathOf, rowCol, describeResult } from "../../web/draughts.js";

const clocks = (white_ms, black_ms, running) => ({ white_ms, black_ms, running, server_time: 5 });

function waitingView() {
  return {
    status: "waiting", fen: "W:W32,37:B5,19,28", side_to_move: "white", legal_moves: [],
    must_capture: [], last_move: null, moves: [], clocks: clocks(1000, 1000, null),
    time_control: "5+3", first_move_deadline: null, draw_offer: null, result: null,
  };
}

test("events change the view as the Rust fold does", () => {
  const v = waitingView();
  applyEvent(v, {
    game: "draughts", type: "started", fen: v.fen, side_to_move: "white",
    legal_moves: ["32x23x14"], must_capture: [32], clocks: clocks(1000, 1000, "white"),
    first_move_deadline: 30,
  });
  assert.equal(v.status, "playing");
  assert.deepEqual(v.must_capture, [32]);
  applyEvent(v, { game: "draughts", type: "draw_offered", by: "white", clocks: clocks(900, 1000, "white") });
  assert.equal(v.draw_offer, "white");
  assert.equal(v.clocks.white_ms, 900);
  applyEvent(v, {
    game: "draughts", type: "moved", side: "white", notation: "32x23x14", fen: "B:W14,37:B5",
    legal_moves: ["5-10"], must_capture: [], clocks: clocks(900, 1000, "black"),
    first_move_deadline: 60, draw_offer: "white",
  });
  assert.deepEqual(v.moves, ["32x23x14"]);
  assert.equal(v.last_move, "32x23x14");
  assert.equal(v.side_to_move, "black");
  assert.deepEqual(v.legal_moves, ["5-10"]);
  assert.equal(v.draw_offer, "white");
  applyEvent(v, { game: "draughts", type: "draw_declined", by: "black", clocks: clocks(900, 950, "black") });
  assert.equal(v.draw_offer, null);
  applyEvent(v, { game: "draughts", type: "over", result: { winner: "white", reason: "resignation" }, clocks: clocks(900, 950, null) });
  assert.equal(v.status, "over");
  assert.deepEqual(v.legal_moves, []);
  assert.deepEqual(v.must_capture, []);
  assert.equal(v.first_move_deadline, null);
  assert.equal(describeResult(v.result), "White wins by resignation.");
  assert.equal(describeResult({ winner: null, reason: "king_moves" }), "Draw by 25 king moves without a capture.");
});

test("PDN FEN: sides, kings, ranges", () => {
  const p = parseFen("B:W31,K46,48-50:BK1,20");
  assert.deepEqual([...p.keys()].sort((a, b) => a - b), [1, 20, 31, 46, 48, 49, 50]);
  assert.deepEqual(p.get(46), { side: "white", king: true });
  assert.deepEqual(p.get(1), { side: "black", king: true });
  assert.deepEqual(p.get(49), { side: "white", king: false });
});

test("squares: 1 at the top, second column; 46 at the bottom left", () => {
  assert.deepEqual(rowCol(1), { row: 0, col: 1 });
  assert.deepEqual(rowCol(5), { row: 0, col: 9 });
  assert.deepEqual(rowCol(6), { row: 1, col: 0 });
  assert.deepEqual(rowCol(46), { row: 9, col: 0 });
  assert.deepEqual(rowCol(50), { row: 9, col: 8 });
  assert.deepEqual(pathOf("28x19x8"), [28, 19, 8]);
});

test("clicks narrow the legal sequences; a move's last square picks it directly", () => {
  const legal = ["32x23x14", "32x21x12", "37x28"];
  assert.deepEqual(narrow(legal, [32]), ["32x23x14", "32x21x12"]);
  assert.deepEqual(narrow(legal, [32, 21]), ["32x21x12"]);
  assert.deepEqual(narrow(legal, [32, 12]), ["32x21x12"], "a drag to the last square");
  assert.deepEqual(narrow(legal, [32, 23, 14]), ["32x23x14"]);
  assert.deepEqual(narrow(legal, [32, 23, 12]), []);
  assert.deepEqual(narrow(legal, [37, 31]), []);
  // A king landing on one of several squares after the same captures: each is offered.
  const king = ["46x28", "46x23", "46x19"];
  assert.deepEqual(narrow(king, [46]), king);
  assert.deepEqual(narrow(king, [46, 23]), ["46x23"]);
});
