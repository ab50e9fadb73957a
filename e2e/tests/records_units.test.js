// The replay viewer's pure parts (web/records.js) in node: a record cut into steps and
// folded through the page's own room state and game folds (xiangqi, and Tuolaji per seat),
// and the words of a row in "my games".

import { test } from "node:test";
import assert from "node:assert/strict";
import { setLanguage } from "../../web/i18n.js";
import { applyEvent as applyXiangqi } from "../../web/xiangqi.js";
import { applyEvent as applyTuolaji } from "../../web/tuolaji.js";
import { foldRecord, replaySteps, outcomeText, othersText } from "../../web/records.js";

await setLanguage("en");
const GAMES = { xiangqi: { applyEvent: applyXiangqi }, tuolaji: { applyEvent: applyTuolaji } };
const START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
const AFTER_1 = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
const AFTER_2 = "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2";
const clocks = (red, black) => ({ red_ms: red, black_ms: black, running: null, server_time: 0 });
const player = (name, bot = false) => ({ player_id: 1, name, bot, connected: true });

/** A xiangqi record as the server writes it: two moves, then Red resigns. */
const xiangqiRecord = {
  room_id: 7, game: "xiangqi", players: ["Wu", "Bot 2"], finished_ms: 0,
  result: { winners: [1], reason: "resignation" },
  final: {
    game: "xiangqi", status: "over", fen: AFTER_2, side_to_move: "red", legal_moves: [], in_check: false,
    last_move: "h9g7", moves: [{ iccs: "h2e2", chinese: "炮二平五" }, { iccs: "h9g7", chinese: "马８进７" }],
    clocks: clocks(290000, 295000), time_control: "5+3", first_move_deadline: null, draw_offer: null,
    result: { winner: "black", reason: "resignation" },
  },
  events: [
    { event: { game: "room", type: "joined", seat: 0, player: player("Wu") } },
    { event: { game: "room", type: "joined", seat: 1, player: player("Bot 2", true) } },
    { event: { game: "xiangqi", type: "started", fen: START, side_to_move: "red", in_check: false, legal_moves: ["h2e2"], clocks: clocks(300000, 300000), first_move_deadline: 30000 } },
    { event: { game: "xiangqi", type: "moved", side: "red", iccs: "h2e2", chinese: "炮二平五", fen: AFTER_1, in_check: false, legal_moves: ["h9g7"], clocks: clocks(298000, 300000), first_move_deadline: null } },
    { event: { game: "xiangqi", type: "moved", side: "black", iccs: "h9g7", chinese: "马８进７", fen: AFTER_2, in_check: false, legal_moves: [], clocks: clocks(298000, 295000), first_move_deadline: null } },
    { event: { game: "xiangqi", type: "over", result: { winner: "black", reason: "resignation" }, clocks: clocks(290000, 295000) } },
  ],
};

test("a xiangqi record: the start and one step a move, folded by the page's own fold", () => {
  const steps = replaySteps(xiangqiRecord);
  assert.deepEqual(steps.map((s) => [s.at, s.label]), [[2, "Start position"], [3, "炮二平五"], [5, "马８进７"]]);
  const states = foldRecord(xiangqiRecord, GAMES, [null], steps);
  const views = states.map((s) => s.rooms[0].view);
  assert.deepEqual(views.map((v) => v.fen), [START, AFTER_1, AFTER_2]);
  assert.deepEqual(views.map((v) => v.moves.length), [0, 1, 2]);
  assert.deepEqual(views.map((v) => v.status), ["playing", "playing", "over"]);
  assert.equal(views[1].last_move, "h2e2");
  assert.deepEqual(views[2].result, { winner: "black", reason: "resignation" });
  // The seats come from the record's room events; the steps' views are copies.
  assert.deepEqual(states[0].rooms[0].seats.map((s) => s.name), ["Wu", "Bot 2"]);
  assert.notEqual(views[0], views[1]);
  assert.equal(states[0].rooms[0].seats[1].bot, true);
  // A record with no room events (a room reopened after a restart): the names still show.
  const reopened = { ...xiangqiRecord, events: xiangqiRecord.events.slice(2) };
  const first = foldRecord(reopened, GAMES, [null], replaySteps(reopened))[0].rooms[0];
  assert.deepEqual(first.seats.map((s) => s.name), ["Wu", "Bot 2"]);
  assert.equal(first.view.fen, START);
});

test("a Tuolaji record: the deal, the bottom, each trick and the result, each seat's cards", () => {
  const ev = (type, fields = {}) => ({ event: { game: "tuolaji", type, ...fields } });
  const own = (seat, type, fields) => ({ seat, event: { game: "tuolaji", type, ...fields } });
  const record = {
    room_id: 9, game: "tuolaji", players: ["Wu", "A", "B", "C"], finished_ms: 0, result: null,
    final: { game: "tuolaji", phase: { type: "over" }, hand_number: 1, levels: [2, 3], auto: [null, null, null, null] },
    events: [
      ev("hand_started", { hand_number: 1, first_drawer: 0, dealer: null, level_rank: "2", levels: [2, 2] }),
      own(0, "dealt", { seat: 0, card: "As" }), own(1, "dealt", { seat: 1, card: "Kh" }),
      own(2, "dealt", { seat: 2, card: "Qc" }), own(3, "dealt", { seat: 3, card: "Jd" }),
      own(0, "dealt", { seat: 0, card: "2s" }),
      ev("bid", { seat: 0, suit: "s", kind: "bid", cards: ["2s"] }),
      ev("bidding_closed", { dealer: 0, trump: "s" }),
      own(0, "bottom_taken", { dealer: 0, count: 1, cards: ["5d"] }),
      own(0, "bottom_put_back", { dealer: 0, count: 1, cards: ["2s"] }),
      ev("led", { seat: 0, cards: ["As"], units: [] }),
      ev("followed", { seat: 1, cards: ["Kh"] }), ev("followed", { seat: 2, cards: ["Qc"] }),
      ev("followed", { seat: 3, cards: ["Jd"] }),
      ev("trick_won", { winner: 0, defenders_points: 0, captured: [] }),
      ev("hand_over", { result: { defenders_points: 0, levels: [3, 2], bottom: ["2s"] } }),
    ],
  };
  const steps = replaySteps(record);
  assert.deepEqual(steps.map((s) => s.label), ["Hand 1: the deal", "The bottom exchanged", "Trick 1", "Hand 1: the result"]);
  assert.deepEqual(steps[0].bottom, { hand: 1, taken: ["5d"], put_back: null });
  assert.deepEqual(steps[1].bottom.put_back, ["2s"]);
  const states = foldRecord(record, GAMES, [null, 0, 1, 2, 3], steps);
  const hands = (k) => states[k].rooms.slice(1).map((r) => r.view.hand);
  assert.deepEqual(hands(0), [["2s", "As"], ["Kh"], ["Qc"], ["Jd"]]);
  assert.deepEqual(hands(1), [["As", "5d"], ["Kh"], ["Qc"], ["Jd"]]);
  assert.deepEqual(hands(2), [["5d"], [], [], []]);
  // The spectator's view: no hand, the trick just won with its four plays and winner.
  const trick = states[2].rooms[0].view;
  assert.equal(trick.hand, null);
  assert.equal(trick.previous_trick.winner, 0);
  assert.deepEqual(trick.previous_trick.plays.map((p) => p.cards[0]), ["As", "Kh", "Qc", "Jd"]);
  assert.deepEqual(states[3].rooms[0].view.levels, [3, 2]);
});

test("a row of my games: the result from the seat's side and the others at the table", async () => {
  const row = { game: "xiangqi", seat: 0, players: ["Wu", "Bot 2"], result: { winners: [1], reason: "resignation" } };
  assert.equal(outcomeText(row), "Lost — resignation");
  assert.equal(outcomeText({ ...row, seat: 1 }), "Won — resignation");
  assert.equal(othersText(row), "against Bot 2");
  // The server's bots are named in the page's language.
  await setLanguage("zh-CN");
  assert.match(othersText(row), /机器人·2/);
  await setLanguage("en");
  const tl = { game: "tuolaji", seat: 1, players: ["Wu", "Li", "Ma", "Lu"], result: { winners: [], reason: "abandoned" } };
  assert.equal(outcomeText(tl), "No winner — every seat was left");
  assert.equal(othersText(tl), "partner Lu, against Ma and Wu");
  assert.equal(outcomeText({ ...row, result: null }), "–");
});
