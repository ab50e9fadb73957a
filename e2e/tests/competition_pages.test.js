// The competition pages: a director signs in on `#/director` (a wrong password is
// refused in words first), creates a small xiangqi competition, imports the registration
// form (a bad form first: the server's line error is shown), sees the entry codes once (with
// each player's entry link and QR code), and pairs round 1. Red sits down from their entry
// link ("Your next table"), Black by typing the code. A second
// person, with no credential, follows the public page `#/competitions/{id}`: the pairings
// appear without a reload, table 1 turns "playing" when its two entrants sit down and
// "finished" with its result when one resigns, the director's result for table 2 and a
// correction with its reason appear too, all through `watch_competition` on the page's own
// WebSocket. Printing hides the page's chrome. Round 2 is played to the awards. The
// screenshots are the README's organisers' walk-through (e2e/screenshots/competition_*.png).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launch, personPage, enterLobby } from "../harness.js";
import { DIRECTOR_ENV, DIRECTOR_PASSWORD, XIANGQI_FORM, call, keeper, says } from "../competition.js";

const T = "competition_pages";
let server;
let browser;

before(async () => {
  server = await startServer(DIRECTOR_ENV);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

const keep = keeper(T, "competition_");

/** The director records (`record`) or corrects (`correct`) a table's result with the form. */
async function enterResult(page, kind, round, table, result, text) {
  await page.fill(`#${kind}-round`, String(round));
  await page.fill(`#${kind}-table`, String(table));
  await page.selectOption(`#${kind}-result`, result);
  await page.fill(`#${kind}-text`, text);
  await page.click(`#btn-${kind}`);
  await says(page, "ok", new RegExp(`round ${round}, table ${table} ${kind === "record" ? "recorded" : "corrected"}`));
}

/** A row of a round's pairings on the public page: its text. */
const rowText = (page, round, table) =>
  page.textContent(`#round-${round}-table tbody tr:nth-child(${table})`);

test("a director runs a competition and the public page follows it live", { timeout: 180000 }, async () => {
  const url = server.url;

  // --- the director: a wrong password first ---
  const director = await personPage(browser);
  await director.goto(`${url}/#/director`);
  await director.waitForSelector("#director-login");
  await director.fill("#dir-password", "a guess");
  await director.click("#btn-login");
  await says(director, "error", /Wrong director name or password/);
  assert.equal(await director.inputValue("#dir-password"), "", "the password does not stay in the form");
  assert.equal(await director.$("#director-create"), null, "nothing a director does is offered");
  await keep(director, "01", "director_refused");

  await director.fill("#dir-password", DIRECTOR_PASSWORD);
  await director.click("#btn-login");
  await director.waitForSelector("#director-create", { timeout: 30000 }); // Argon2 is slow in a debug build
  // The session is the API's HttpOnly cookie: the page cannot read it.
  assert.equal(await director.evaluate(() => document.cookie), "");

  // --- create, import (a bad form, then the right one) ---
  await director.fill("#new-name", "Works cup 工会杯");
  await director.selectOption("#new-event", "xiangqi");
  await director.fill("#new-rounds", "2");
  await director.fill("#new-seed", "11");
  await director.click("#btn-create");
  await says(director, "ok", /Created Works cup/);
  const id = (await call(url, "/api/competitions")).competitions[0].id;
  await director.fill("#import-csv", "机关工会,xiangqi,,Zhao\n后勤工会,chess,,Qian\n");
  await director.click("#btn-import");
  await says(director, "error", /Entry form line 2, event: unknown event “chess”/);
  assert.match(await director.textContent("#director-message"), /line 2/, "the server's row error is shown");
  await director.fill("#import-csv", XIANGQI_FORM);
  await director.click("#btn-import");
  await says(director, "ok", /Imported 4 entries/);
  await keep(director, "02", "director_imported");

  // --- each player's entry code: on the director's page only, shown once after the import
  // (the store keeps hashes), with the entry link and its QR code drawn by the server ---
  await director.waitForSelector("#entry-codes tbody tr:nth-child(4)");
  await director.waitForFunction(() => [...document.querySelectorAll("#entry-codes img.entry-qr")]
    .every((img) => img.complete && img.naturalWidth > 0));
  const links = await director.$$eval("#entry-codes .entry-link a", (as) => as.map((a) => a.href));
  assert.equal(links.length, 4);
  for (const l of links) assert.match(l, new RegExp(`^${url}/\\?entry=[2-9A-HJ-NP-Z-]{14}$`));
  await director.locator("#entry-codes").scrollIntoViewIfNeeded();
  await keep(director, "02b", "director_codes");
  const codes = Object.fromEntries(await director.$$eval("#entry-codes tbody tr",
    (rows) => rows.map((r) => [r.children[1].textContent, r.children[2].textContent])));
  assert.equal(Object.keys(codes).length, 4);
  for (const code of Object.values(codes)) assert.match(code, /^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);

  // --- the public page, in another browser context with no credential ---
  const pub = await personPage(browser);
  await enterLobby(pub, url, "Spectator");
  await pub.click("#competitions-link");
  await pub.click(`a[href="#/competitions/${id}"]`);
  await pub.waitForSelector("#entries-table tbody tr:nth-child(4)");
  assert.equal(await pub.textContent("#competition-live"), "Updating live.");
  assert.ok(!(await pub.content()).includes("13700000001"), "contacts never reach the public page");
  for (const code of Object.values(codes)) assert.ok(!(await pub.content()).includes(code), "nor entry codes");
  // Nothing below reloads the page: this mark would go.
  await pub.evaluate(() => { window.notReloaded = true; });

  // --- round 1: the pairings appear live ---
  await director.click("#btn-start-round");
  await says(director, "ok", /Round 1 paired: 2 tables/);
  await pub.waitForSelector("#round-1-table tbody tr:nth-child(2)");
  const r1 = await call(url, `/api/competitions/${id}/rounds/1`);
  const [t1, t2] = r1.tables;
  assert.match(await rowText(pub, 1, 1), new RegExp(`${t1.first.players[0]}.*${t1.second.players[0]}.*Waiting for players`));

  // Table 1's entrants sit down (their seats are reserved): Red opens their entry link, and
  // the lobby shows "your next table" with a button that sits them (no code typed); Black
  // picks the seat in the list and is asked for the code (a wrong one is refused and asked
  // again); then "playing", live.
  const sit = async (page, seat, code) => {
    await page.click(`[data-join="${t1.room}:${seat}"]`);
    await page.waitForSelector("#entry-code-form");
    await page.fill("#entry-code", code);
    await page.click("#entry-code-sit");
  };
  const red = await personPage(browser);
  await red.goto(`${url}/?entry=${codes[t1.first.players[0]]}`);
  // The code leaves the address bar once the page's modules have run (after its catalogue).
  await red.waitForFunction(() => location.search === "");
  assert.equal(new URL(red.url()).search, "", "the code leaves the address bar");
  await enterLobby(red, url, t1.first.players[0]);
  await red.waitForSelector("#btn-next-sit");
  assert.match(await red.textContent("#next-table-what"), new RegExp(`Round 1: table ${t1.table}, seat 1\\.`));
  assert.match(await red.textContent("#next-table-who"), new RegExp(t1.first.players[0]));
  await keep(red, "02c", "next_table");
  await red.click("#btn-next-sit");
  const black = await personPage(browser);
  await enterLobby(black, url, t1.second.players[0]);
  assert.equal(await black.$("#next-table:not([hidden])"), null, "no entry link, no next table");
  await sit(black, 1, "2222-3333-4444");
  await black.waitForSelector("#entry-code-form");
  await black.fill("#entry-code", codes[t1.second.players[0]].toLowerCase());
  await black.click("#entry-code-sit");
  await red.waitForSelector("#btn-resign");
  await pub.waitForSelector(`#round-1-table [data-status="playing"]`);
  await keep(pub, "03", "public_round1");

  // Red resigns: the result is recorded by the server and shown.
  await red.click("#btn-resign");
  await red.click("#btn-resign");
  await pub.waitForFunction((name) => {
    const row = document.querySelector("#round-1-table tbody tr:nth-child(1)");
    return row && row.querySelector('[data-status="finished"]') && row.textContent.includes(`${name} won`);
  }, t1.second.players[0]);

  // Table 2 was played off the server: the director records it, with a note.
  await enterResult(director, "record", 1, 2, "first_wins", "7 minutes late: warning");
  await pub.waitForFunction((name) => document.querySelector("#round-1-table tbody tr:nth-child(2)")?.textContent.includes(`${name} won`), t2.first.players[0]);
  assert.match(await rowText(pub, 1, 2), /7 minutes late: warning/);

  // An arbiter's correction: the new result and its reason appear.
  await enterResult(director, "correct", 1, 1, "draw", "the clock was set to 5+3, not 30+10");
  await pub.waitForSelector("#corrections-table");
  assert.match(await pub.textContent("#corrections-table"), /Second wins → Draw.*the clock was set to 5\+3, not 30\+10.*director/);
  await pub.waitForFunction(() => document.querySelector("#round-1-table tbody tr:nth-child(1)")?.textContent.includes("Draw"));
  // Standings with every tiebreak.
  const heads = await pub.$$eval("#standings-table th", (ths) => ths.map((th) => th.textContent));
  for (const h of ["Round points (轮分)", "Opponents' points (对手分)", "Level difference (级差)", "Lot"]) assert.ok(heads.includes(h), h);
  await keep(pub, "04", "public_corrected");

  // A table's "Watch" button: the public page's person spectates it, then comes back.
  // (Round 2 below: the tables are open and waiting.)

  // --- round 2, to the awards ---
  await director.click("#btn-start-round");
  await says(director, "ok", /Round 2 paired/);
  await pub.waitForSelector("#round-2-table tbody tr:nth-child(2)");
  const r2 = await call(url, `/api/competitions/${id}/rounds/2`);
  await pub.click(`#round-2-table [data-room="${r2.tables[0].room}"]`);
  await pub.waitForSelector("#table:not([hidden])");
  await pub.evaluate((cid) => { location.hash = `#/competitions/${cid}`; }, id);
  await pub.waitForSelector("#round-2-table tbody tr:nth-child(2)");
  await enterResult(director, "record", 2, 1, "second_wins", "");
  await enterResult(director, "record", 2, 2, "draw", "");
  await pub.waitForFunction(() => document.querySelectorAll("#comp-awards li").length > 0);
  await pub.waitForFunction(() => [...document.querySelectorAll("#round-2-table [data-status]")].every((s) => s.dataset.status === "finished"));
  assert.match(await pub.textContent("#comp-awards"), /First prize/);
  await keep(pub, "05", "public_final", { fullPage: true });

  // --- printing: the chrome is hidden, the pairings, standings and awards stay ---
  await pub.emulateMedia({ media: "print" });
  assert.equal(await pub.isVisible("header.top"), false, "the header is not printed");
  assert.equal(await pub.isVisible("#btn-print"), false, "nor the buttons");
  assert.equal(await pub.isVisible("#competition-live"), false);
  assert.equal(await pub.isVisible("#round-1-table"), true);
  assert.equal(await pub.isVisible("#comp-awards"), true);
  await keep(pub, "06", "print", { fullPage: true });
  await pub.emulateMedia({ media: "screen" });
  assert.equal(await pub.isVisible("header.top"), true);

  assert.equal(await pub.evaluate(() => window.notReloaded), true, "the public page never reloaded");
  // The refused sign-in (401) and the refused form (400) are logged by the browser as
  // failed loads; nothing else may be.
  const unexpected = director.errors.filter((e) => !/status of 40[01]/.test(e));
  assert.deepEqual(unexpected, []);
  assert.deepEqual(pub.errors, []);
  assert.deepEqual(red.errors, []);
  assert.deepEqual(black.errors, []);
});

test("without a session every director action is refused in words", { timeout: 60000 }, async () => {
  const page = await personPage(browser);
  // Signed in, then the session ends elsewhere (signed out by another tab with the cookie).
  await page.goto(`${server.url}/#/director`);
  await page.fill("#dir-password", DIRECTOR_PASSWORD);
  await page.click("#btn-login");
  await page.waitForSelector("#btn-start-round", { timeout: 30000 });
  await page.evaluate(() => fetch("/api/director/logout", { method: "POST" }));
  await page.click("#btn-start-round");
  await says(page, "error", /Only a signed-in director may do that/);
  // The page goes back to the sign-in form.
  await page.waitForSelector("#director-login");
  const unexpected = page.errors.filter((e) => !/status of 401/.test(e));
  assert.deepEqual(unexpected, []);
});
