// "My games" and the replay viewer: a person plays the xiangqi bot two moves and
// resigns, then sits at a Tuolaji table with three bots whose short settings (a 200 ms turn,
// one hand in a one-minute round) let the server play the person's timed-out turns, so the
// whole hand and the game end in seconds. The person opens "My games" from the header: both
// games are listed with the opponents and the result; the xiangqi one offers its PGN. Each
// replay is stepped through with the keyboard (→, ←, Home, End) and a click on a move, and
// what the board and the trick show is compared with what the person's page received while
// playing: the pieces after each move, the moves in Chinese notation, the person's dealt
// cards, the bottom, the tricks' cards and their winners. The Tuolaji replay is opened by
// its shared address (`#/games/{id}`).

import { test } from "node:test";
import assert from "node:assert/strict";
import { decode } from "../../web/vendor/msgpack/index.mjs";
import { serverAndBrowser, personPage, enterLobby, clickMove, waitMoves, movesOf, shot, playSomeMove } from "../harness.js";

const T = "records_replay";
const env = serverAndBrowser({
  QIPAI_TUOLAJI__DEAL_INTERVAL_MS: "0",
  QIPAI_TUOLAJI__TRICK_PAUSE_MS: "0",
  QIPAI_TUOLAJI__BID_WINDOW_MS: "300",
  QIPAI_TUOLAJI__BOTTOM_MS: "300",
  QIPAI_TUOLAJI__TURN_MS: "200",
  QIPAI_TUOLAJI__ROUND_MINUTES: "1",
  QIPAI_TUOLAJI__LAST_CALL_MINUTES: "1",
  QIPAI_TUOLAJI__BETWEEN_HANDS_MS: "500",
}, undefined, { tuolajiSeed: 7 });

/** Every room event the page receives, decoded from the WebSocket's MessagePack frames. */
function recordEvents(page) {
  const events = [];
  page.on("websocket", (ws) => ws.on("framereceived", ({ payload }) => {
    if (typeof payload === "string") return;
    const frame = decode(payload);
    for (const msg of Array.isArray(frame) ? frame : [frame]) {
      if (msg?.type === "event") events.push(msg.event);
    }
  }));
  return events;
}

/** The tricks of a Tuolaji hand as the events told them: [{ plays: {seat: cards}, winner }]. */
function tricksOf(events) {
  const tricks = [];
  for (const ev of events) {
    if (ev.game !== "tuolaji") continue;
    if (ev.type === "led") tricks.push({ plays: { [ev.seat]: ev.cards }, winner: null });
    else if (ev.type === "followed") tricks.at(-1).plays[ev.seat] = ev.cards;
    else if (ev.type === "trick_won") tricks.at(-1).winner = ev.winner;
  }
  return tricks;
}

const sorted = (cards) => [...cards].sort();
/** The cards a replayed seat shows in the trick. */
const trickCards = (page, seat) => page.$$eval(`.replay-board .tl-seat[data-seat="${seat}"] .cards.played .card`,
  (els) => els.map((e) => e.dataset.card));
/** The pieces on the replayed xiangqi board: { square: letter-class }. */
const pieceAt = (page, sq) => page.locator(`.replay-board [data-piece="${sq}"]`).count();

test("my games lists a xiangqi and a Tuolaji game; both replay step by step", { timeout: 150000 }, async () => {
  const person = await personPage(env.browser);
  const events = recordEvents(person);
  await enterLobby(person, env.server.url, "Wu");

  // A xiangqi game against the bot: two moves each, then the person resigns.
  await person.selectOption("#create-tc", "5+3");
  await person.selectOption("#create-seat", "0");
  await person.check("#create-bots");
  await person.selectOption("#create-bot-strength", "beginner");
  await person.click("#btn-create");
  await person.waitForSelector("text=Your move.");
  await clickMove(person, "h2e2");
  await waitMoves(person, 2);
  await person.waitForSelector("text=Your move");
  await playSomeMove(person);
  await waitMoves(person, 4);
  await person.waitForSelector("text=Your move");
  const played = await movesOf(person);
  await person.click("#btn-resign");
  await person.click("#btn-resign");
  await person.waitForSelector("#result:not(.hidden)");
  await person.click("#btn-back");
  await person.waitForSelector("#lobby:not([hidden])");

  // A Tuolaji table with three bots: the server plays the person's timed-out turns.
  events.length = 0;
  await person.click("#btn-tuolaji-bots");
  await person.waitForSelector("#table:not([hidden])");
  await person.waitForSelector("#tl-game-over", { timeout: 90000 });
  await shot(person, T, "01-tuolaji-over");
  // Game over keeps the bots' names (never "Seat 3") and the last hand's result under it:
  // its bottom and the level change.
  const overText = await person.textContent("#tl-game-over");
  if (/win the game/.test(overText)) assert.match(overText, /Bot \d/);
  assert.doesNotMatch(overText, /Seat \d/);
  assert.match(await person.textContent("#tl-result"), /Hand over: defenders -?\d+ points/);
  assert.equal(await person.locator("#tl-result .cards.mini .card").count() >= 6, true, "the bottom shown");
  const tricks = tricksOf(events);
  assert.equal(tricks.length > 5, true, `${tricks.length} tricks`);
  // One card at a time (`dealt`) or, when the deal has no pauses, a seat's cards at once (`dealt_cards`).
  const dealt = events
    .filter((e) => e.game === "tuolaji" && e.seat === 0 && (e.type === "dealt" || e.type === "dealt_cards"))
    .flatMap((e) => (e.type === "dealt" ? (e.card ? [e.card] : []) : e.cards));
  assert.equal(dealt.length, 39);
  const taken = events.find((e) => e.type === "bottom_taken");
  const over = events.find((e) => e.type === "hand_over");
  await person.click("#tl-game-over button");
  await person.waitForSelector("#lobby:not([hidden])");

  // "My games" from the header: both games, newest first, with the others and the result.
  await person.click("#my-games");
  await person.waitForSelector("#records:not([hidden]) .records-table");
  await shot(person, T, "02-my-games");
  const rows = person.locator(".records-table tbody tr");
  assert.equal(await rows.count(), 2);
  assert.equal(await rows.nth(0).getAttribute("data-game"), "tuolaji");
  assert.equal(await rows.nth(1).getAttribute("data-game"), "xiangqi");
  const xqRow = rows.nth(1);
  assert.match(await xqRow.textContent(), /against .+/);
  assert.match(await xqRow.locator(".records-result").textContent(), /Lost — resignation/);
  assert.match(await rows.nth(0).textContent(), /partner .+, against .+ and .+/);
  assert.equal(await person.locator("#btn-records-prev").isDisabled(), true);
  assert.equal(await person.locator("#btn-records-next").isDisabled(), true);
  const pgnHref = await xqRow.locator('[data-file="pgn"]').getAttribute("href");
  const pgn = await (await person.request.get(env.server.url + pgnHref)).text();
  assert.match(pgn, /1\. H2-E2 \{炮二平五\}/);
  assert.equal(await rows.nth(0).locator("[data-file]").count(), 0);
  const tlId = await rows.nth(0).getAttribute("data-room");
  // Sizes and times for README (the list reads each record's players and result).
  const tlRecord = await (await person.request.get(`${env.server.url}/api/games/${tlId}`)).text();
  const started = Date.now();
  await person.request.get(`${env.server.url}/api/players/Wu/games?page=0`);
  console.log(`a one-hand Tuolaji record: ${tlRecord.length} bytes, ${JSON.parse(tlRecord).events.length} events; the list of 2 games: ${Date.now() - started} ms`);

  // The xiangqi replay: the start, each move with the keyboard, a click on a move, the end.
  await xqRow.locator("[data-replay]").click();
  await person.waitForSelector("#replay");
  assert.match(person.url(), /#\/games\/\d+$/);
  const steps = await person.$$eval("#replay-steps [data-step]", (els) => els.map((e) => e.textContent));
  assert.deepEqual(steps.slice(1).map((s) => s.replace(/^\d+\. /, "")), played);
  assert.equal(await pieceAt(person, "h2"), 1);
  await person.focus("#replay");
  await person.keyboard.press("ArrowRight");
  await person.waitForSelector('#records[data-at="1"]');
  assert.equal(await pieceAt(person, "h2"), 0);
  assert.equal(await person.locator('.replay-board .xq-piece.red[data-piece="e2"]').count(), 1);
  assert.match(await person.textContent("#replay-step"), new RegExp(`Step 1 of 4: ${played[0]}`));
  assert.equal(await person.getAttribute('#replay-steps [data-step="1"]', "aria-current"), "step");
  await person.keyboard.press("ArrowRight");
  await person.keyboard.press("ArrowRight");
  await person.waitForSelector('#records[data-at="3"]');
  assert.equal(await person.locator('.replay-board .xq-piece.red[data-piece="g2"]').count(), 1);
  await person.keyboard.press("ArrowLeft");
  await person.waitForSelector('#records[data-at="2"]');
  assert.equal(await pieceAt(person, "g2"), 0);
  assert.equal(await pieceAt(person, "h0"), 1);
  await person.keyboard.press("End");
  await person.waitForSelector('#records[data-at="4"]');
  assert.match(await person.textContent(".replay-board #result"), /resignation/);
  await shot(person, T, "03-xiangqi-replay-end");
  await person.keyboard.press("Home");
  await person.waitForSelector('#records[data-at="0"]');
  assert.equal(await pieceAt(person, "e2"), 0);
  await person.click('#replay-steps [data-step="1"]');
  await person.waitForSelector('#records[data-at="1"]');
  assert.equal(await pieceAt(person, "e2"), 1);
  await person.click("#btn-records-close");
  await person.waitForSelector("#lobby:not([hidden])");

  // The Tuolaji replay, by its shared address: the deal, the bottom, tricks, the result.
  await person.goto(`${env.server.url}/#/games/${tlId}`);
  await person.waitForSelector("#replay-hands");
  await person.waitForSelector('#records[data-at="0"]');
  await shot(person, T, "04-tuolaji-replay-deal");
  for (let seat = 0; seat < 4; seat++) {
    assert.equal(await person.locator(`.replay-hand[data-seat="${seat}"] .card`).count(), 39, `seat ${seat} dealt`);
  }
  const seat0 = await person.$$eval('.replay-hand[data-seat="0"] .card', (els) => els.map((e) => e.dataset.card));
  assert.deepEqual(sorted(seat0), sorted(dealt));
  await person.focus("#replay");
  await person.keyboard.press("ArrowRight");
  await person.waitForSelector('#records[data-at="1"]');
  assert.match(await person.textContent("#replay-step"), /The bottom exchanged/);
  assert.equal(await person.locator("#replay-bottom-before .card").count(), 6);
  assert.equal(await person.locator("#replay-bottom-after .card").count(), 6);
  // The bottom put back is public once the hand is over; the one taken only the dealer saw.
  const after = await person.$$eval("#replay-bottom-after .card", (els) => els.map((e) => e.dataset.card));
  assert.deepEqual(sorted(after), sorted(over.result.bottom));
  if (taken?.cards?.length) {
    const before = await person.$$eval("#replay-bottom-before .card", (els) => els.map((e) => e.dataset.card));
    assert.deepEqual(sorted(before), sorted(taken.cards));
  }
  for (const n of [1, 2, 5]) {
    // Step 1 + n is trick n.
    while (Number(await person.getAttribute("#records", "data-at")) < 1 + n) await person.keyboard.press("ArrowRight");
    await person.waitForSelector(`#records[data-at="${1 + n}"]`);
    assert.match(await person.textContent("#replay-step"), new RegExp(`Trick ${n}$`));
    const live = tricks[n - 1];
    for (let seat = 0; seat < 4; seat++) {
      assert.deepEqual(sorted(await trickCards(person, seat)), sorted(live.plays[seat]), `trick ${n}, seat ${seat}`);
    }
    assert.equal(await person.getAttribute(".replay-board .tl-seat.winner", "data-seat"), String(live.winner), `trick ${n} winner`);
  }
  await shot(person, T, "05-tuolaji-replay-trick");
  await person.keyboard.press("End");
  const last = await person.locator("#replay-steps [data-step]").count() - 1;
  await person.waitForSelector(`#records[data-at="${last}"]`);
  assert.equal(last, 2 + tricks.length);
  assert.match(await person.textContent("#replay-step"), /Hand 1: the result/);
  await person.waitForSelector(".replay-board #tl-game-over");
  await shot(person, T, "06-tuolaji-replay-result");
  await person.keyboard.press("ArrowLeft");
  await person.waitForSelector(`#records[data-at="${last - 1}"]`);
  const lastTrick = tricks.at(-1);
  for (let seat = 0; seat < 4; seat++) {
    assert.deepEqual(sorted(await trickCards(person, seat)), sorted(lastTrick.plays[seat]), `last trick, seat ${seat}`);
  }
  assert.deepEqual(person.errors, []);
});

test("a draughts game replays move by move and offers its PDN", { timeout: 60000 }, async () => {
  const white = await personPage(env.browser);
  const black = await personPage(env.browser);
  await enterLobby(white, env.server.url, "Ma");
  await white.click("#dr-create summary");
  await white.selectOption("#dr-create-seat", "0");
  await white.fill("#dr-fen", "W:W32:B19");
  await white.click("#btn-create-draughts");
  await white.waitForSelector("text=Waiting for an opponent");
  await enterLobby(black, env.server.url, "Lu");
  await black.locator(".table-row [data-join$=':1']").first().click();
  await white.waitForSelector("text=Your move.");
  // 32-28 19-23 28x19: Black has no piece left and loses.
  const move = async (page, from, to) => {
    await page.click(`[data-sq="${from}"]`);
    await page.click(`[data-sq="${to}"]`);
  };
  await move(white, 32, 28);
  await black.waitForSelector("text=Your move.");
  await move(black, 19, 23);
  await white.waitForSelector("text=Your move");
  await move(white, 28, 19);
  await white.waitForSelector("#result:not(.hidden)");
  await white.click("#btn-back");

  await white.click("#my-games");
  await white.waitForSelector(".records-table");
  const row = white.locator('.records-table tbody tr[data-game="draughts"]');
  assert.match(await row.locator(".records-result").textContent(), /Won/);
  const pdn = await (await white.request.get(env.server.url + await row.locator('[data-file="pdn"]').getAttribute("href"))).text();
  assert.match(pdn, /\[FEN "W:W32:B19"\]\n\n1\. 32-28 19-23 2\. 28x19 2-0/);
  await row.locator("[data-replay]").click();
  await white.waitForSelector("#replay-steps [data-step]");
  const pieces = () => white.$$eval(".replay-board .dr-piece", (els) => els.map((e) =>
    `${e.dataset.piece}:${e.classList.contains("white") ? "white" : "black"}`).sort());
  assert.deepEqual(await pieces(), ["19:black", "32:white"]);
  await white.focus("#replay");
  await white.keyboard.press("ArrowRight");
  await white.waitForSelector('#records[data-at="1"]');
  assert.deepEqual(await pieces(), ["19:black", "28:white"]);
  await white.keyboard.press("End");
  await white.waitForSelector('#records[data-at="3"]');
  assert.deepEqual(await pieces(), ["19:white"]);
  assert.deepEqual(await white.$$eval("#replay-steps [data-step]", (els) => els.map((e) => e.textContent).slice(1)),
    ["32-28", "19-23", "28x19"]);
  await white.keyboard.press("ArrowLeft");
  await white.waitForSelector('#records[data-at="2"]');
  assert.deepEqual(await pieces(), ["23:black", "28:white"]);
  await shot(white, T, "07-draughts-replay");
  for (const page of [white, black]) assert.deepEqual(page.errors, []);
});
