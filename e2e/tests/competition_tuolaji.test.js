// A Tuolaji-pairs competition in the browser (tournaments.md "Who sits where"): the
// director signs in on `#/director`, creates a Tuolaji competition of two pairs, imports the
// form and sees each player's entry code once, with the entry link and its QR code; reissues
// one player's code (the page shows the new one; the old link then says the code no longer
// works). Round 1 is paired: each of the four players opens their entry link, the lobby's
// "Your next table" names round 1, table 1 and their seat (the pairs sit across: seats 1+3
// and 2+4), and "Sit at my table" seats them with no code typed. The table runs: the deal
// is shown and the public round says "playing". Screenshots for README's organisers' section
// (e2e/screenshots/competition_tuolaji_*.png).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startServer, launch, personPage, enterLobby } from "../harness.js";
import { DIRECTOR_ENV, DIRECTOR_PASSWORD, call, keeper, says } from "../competition.js";

const T = "competition_tuolaji";
let server;
let browser;

before(async () => {
  server = await startServer({ ...DIRECTOR_ENV, QIPAI_TUOLAJI__DEAL_INTERVAL_MS: "30" }, undefined, { tuolajiSeed: 7 });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

const keep = keeper(T, "competition_tuolaji_");

/** Name → code, from the codes the director's page shows. */
const shownCodes = (page) => page.$$eval("#entry-codes tbody tr",
  (rows) => Object.fromEntries(rows.map((r) => [r.children[1].textContent, r.children[2].textContent])));

const FORM = `department,event,pair,name
机关工会,tuolaji,1,Zhao
机关工会,tuolaji,1,Qian
后勤工会,tuolaji,1,Sun
后勤工会,tuolaji,1,Li
`;

test("a Tuolaji competition: entry links, a reissued code, four players seated from their next table", { timeout: 150000 }, async () => {
  const url = server.url;
  const director = await personPage(browser);
  await director.goto(`${url}/#/director`);
  await director.waitForSelector("#director-login");
  await director.fill("#dir-password", DIRECTOR_PASSWORD);
  await director.click("#btn-login");
  await director.waitForSelector("#director-create", { timeout: 30000 });
  await director.fill("#new-name", "工会杯 拖拉机");
  await director.selectOption("#new-event", "tuolaji");
  await director.fill("#new-rounds", "1");
  await director.fill("#new-seed", "3");
  await director.click("#btn-create");
  await says(director, "ok", /Created/);
  const id = (await call(url, "/api/competitions")).competitions[0].id;
  await director.fill("#import-csv", FORM);
  await director.click("#btn-import");
  await says(director, "ok", /Imported 2 entries/);
  await director.waitForSelector("#entry-codes tbody tr:nth-child(4)");
  const codes = await shownCodes(director);
  assert.deepEqual(Object.keys(codes).sort(), ["Li", "Qian", "Sun", "Zhao"]);

  // Li's code is reissued: the page shows the new one, once.
  await director.click("#btn-reissue-list");
  await director.click("#btn-reissue-1-1");
  await says(director, "ok", /New code for Li/);
  await director.waitForFunction(() => document.querySelectorAll("#entry-codes tbody tr").length === 1);
  const reissued = await shownCodes(director);
  assert.ok(reissued.Li && reissued.Li !== codes.Li, "a new code");
  await director.evaluate(() => document.querySelector("#director-codes").scrollIntoView({ block: "start" }));
  await keep(director, "01", "reissued");
  // The old link no longer works: the lobby says so (and forgets it).
  const stale = await personPage(browser);
  await stale.goto(`${url}/?entry=${codes.Li}`);
  // The page keeps the code and clears the address bar once its modules have run (after its
  // catalogue); entering the lobby before that would lose the code.
  await stale.waitForFunction(() => location.search === "");
  await enterLobby(stale, url, "Li");
  await stale.waitForSelector("#next-table-error");
  assert.match(await stale.textContent("#next-table-error"), /entry code/);
  await stale.close();
  codes.Li = reissued.Li;

  await director.click("#btn-start-round");
  await says(director, "ok", /Round 1 paired: 1 tables?/);
  const r1 = await call(url, `/api/competitions/${id}/rounds/1`);
  const table = r1.tables[0];
  // Seats 0 and 2: the first-named pair; 1 and 3 the second.
  const seatOf = {};
  table.first.players.forEach((n, i) => { seatOf[n] = 2 * i; });
  table.second.players.forEach((n, i) => { seatOf[n] = 1 + 2 * i; });

  const pages = [];
  for (const name of ["Zhao", "Qian", "Sun", "Li"]) {
    const page = await personPage(browser);
    await page.goto(`${url}/?entry=${codes[name]}`);
    await page.waitForFunction(() => location.search === "");
    await enterLobby(page, url, name);
    await page.waitForSelector("#btn-next-sit");
    assert.match(await page.textContent("#next-table-what"), new RegExp(`Round 1: table 1, seat ${seatOf[name] + 1}\\.`));
    if (name === "Zhao") await keep(page, "02", "next_table");
    await page.click("#btn-next-sit");
    await page.waitForSelector("#table:not([hidden])");
    pages.push(page);
  }
  // The table runs: four seats with the registered names, the cards being dealt.
  const zhao = pages[0];
  await zhao.waitForFunction(() => document.querySelectorAll("#hand [data-card]").length >= 5, null, { timeout: 30000 });
  for (const name of ["Qian", "Sun", "Li"]) assert.ok((await zhao.textContent("#table")).includes(name), name);
  const v = await call(url, `/api/competitions/${id}/rounds/1`);
  assert.equal(v.tables[0].status, "playing");
  await keep(zhao, "03", "table");
  for (const p of pages) await p.close();
});
