// The organiser's papers (competition-print.html), printed by Chromium to A4 PDF and read
// back as text (pdftotext): a round's pairing sheet (table, Red/Black, names, departments),
// its result slips, and the awards list with the award names in Chinese. The competition is
// set up over the API with a registration form headed as the page's help text says
// (单位,项目,组号,姓名,电话,是否入群). The PDFs and their text are kept in e2e/artifacts.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { serverAndBrowser, personPage, shot, ARTIFACTS } from "../harness.js";
import { DIRECTOR_ENV, DIRECTOR_PASSWORD, call } from "../competition.js";

const T = "competition_papers";
const env = serverAndBrowser(DIRECTOR_ENV);

const FORM = `单位,项目,组号,姓名,电话,是否入群
机关工会,象棋,,赵一,13700000001,是
后勤工会,象棋,,钱二,,
教学工会,象棋,,孙三,,
科研工会,象棋,,李四,,
`;

/** A xiangqi competition of one round, both tables recorded: the awards are final. */
async function seed(url) {
  const { token } = await call(url, "/api/director/login", { method: "POST", body: { name: "director", password: DIRECTOR_PASSWORD } });
  const c = await call(url, "/api/director/competitions", { token, method: "POST", body: { name: "工会杯 象棋", event: "xiangqi", rounds: 1, seed: 5 } });
  await call(url, `/api/director/competitions/${c.id}/entries`, { token, method: "POST", body: FORM });
  const round = await call(url, `/api/director/competitions/${c.id}/rounds`, { token, method: "POST" });
  for (const table of [1, 2]) {
    await call(url, `/api/director/competitions/${c.id}/results`, { token, method: "POST", body: { round: 1, table, result: "first_wins" } });
  }
  return { id: c.id, round };
}

/** Prints the paper at `query` to A4 PDF; its text as pdftotext reads it. */
async function printed(page, url, query, name) {
  await page.goto(`${url}/competition-print.html?${query}`);
  await page.waitForSelector("#paper[data-ready]");
  await shot(page, T, name);
  const dir = path.join(ARTIFACTS, T);
  mkdirSync(dir, { recursive: true });
  const pdf = path.join(dir, `${name}.pdf`);
  await page.pdf({ path: pdf, format: "A4", printBackground: true });
  const text = execFileSync("pdftotext", ["-layout", pdf, "-"], { encoding: "utf8" });
  writeFileSync(path.join(dir, `${name}.txt`), text);
  return text;
}

test("the pairing sheet, the result slips and the awards list print on A4 with their text", { timeout: 60000 }, async () => {
  const { id, round } = await seed(env.server.url);
  const page = await personPage(env.browser, { lang: "zh-CN" });

  // The public page links each paper.
  await page.goto(`${env.server.url}/#/competitions/${id}`);
  await page.waitForSelector("#competition-title");
  for (const paper of ["pairings", "slips", "awards"]) await page.waitForSelector(`a[data-paper=${paper}]`);
  await page.waitForSelector(`a[href$="/teams.csv"]`);

  // The pairing sheet: each table with Red and Black, names and departments.
  const sheet = await printed(page, env.server.url, `id=${id}&paper=pairings&round=1`, "01-pairings-zh");
  assert.match(sheet, /工会杯 象棋 · 第1轮对阵表/);
  assert.match(sheet, /台号\s+红方\s+黑方\s+结果/);
  for (const t of round.tables) {
    for (const side of [t.first, t.second]) {
      assert.ok(sheet.includes(side.players[0]), `${side.players[0]} on the sheet`);
      assert.ok(sheet.includes(side.team), `${side.team} on the sheet`);
    }
  }
  const firstRed = round.tables[0].first.players[0];
  const firstBlack = round.tables[0].second.players[0];
  const line = sheet.split("\n").find((l) => l.includes(firstRed));
  assert.ok(line && line.indexOf(firstRed) < line.indexOf(firstBlack), `Red before Black: ${line}`);

  // The result slips: one per table, with the table's name and the three signatures.
  const slips = await printed(page, env.server.url, `id=${id}&paper=slips&round=1`, "02-slips-zh");
  assert.equal(await page.locator(".slip").count(), round.tables.length);
  assert.match(slips, /工会杯 象棋 · 第1轮 第1桌/);
  assert.match(slips, /工会杯 象棋 · 第1轮 第2桌/);
  assert.match(slips, /裁判签名/);

  // The awards list, final: award names in Chinese, the winners with their departments.
  const awards = await printed(page, env.server.url, `id=${id}&paper=awards`, "03-awards-zh");
  assert.match(awards, /工会杯 象棋 · 获奖名单/);
  assert.match(awards, /一等奖/);
  assert.doesNotMatch(awards, /暂定/, "the competition is over");
  const winners = await call(env.server.url, `/api/competitions/${id}/awards`);
  for (const e of winners.entries) assert.ok(awards.includes(e.players[0]), `${e.players[0]} on the list`);
  assert.deepEqual(page.errors, []);
  await page.context().close();

  // An English page names the awards in English with the Chinese beside them.
  const en = await personPage(env.browser, { lang: "en" });
  const list = await printed(en, env.server.url, `id=${id}&paper=awards`, "04-awards-en");
  assert.match(list, /Awards/);
  assert.match(list, /一等奖/);
  assert.deepEqual(en.errors, []);
  await en.context().close();
});
