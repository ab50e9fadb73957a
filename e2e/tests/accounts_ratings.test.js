// Accounts and ratings on the page in Chinese (a browser whose language is zh-CN): a person
// signs up from the name screen, plays under the account's name, opens a rated xiangqi
// table against the beginner bot, plays two moves and resigns; the profile then shows the
// xiangqi rating with its chart (a point for the game), 我的对局 lists the game as rated, and
// the leaderboard lists the player. Another person signing in with a wrong password is told
// so in Chinese. Screenshots into artifacts/accounts_ratings/.

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, personPage, shot, sleep, clickMove, waitMoves, playSomeMove } from "../harness.js";

const T = "accounts_ratings";
const NAME = "王芳";
const PASSWORD = "correct horse";
const env = serverAndBrowser();

/** A page for a person whose browser speaks Chinese, at the sign-in page. */
async function atSignIn() {
  const page = await personPage(env.browser, { lang: null, locale: "zh-CN" });
  await page.goto(env.server.url);
  // This file runs first in the suite: its first page pays for Chromium's and the CJK
  // fonts' cold start, which took over 10 s on a loaded 2-core machine.
  await page.waitForSelector("#name-screen:not([hidden])", { timeout: 45000 });
  await page.click("#name-sign-in");
  await page.waitForSelector("#account:not([hidden]) #signin-form");
  return page;
}

/**
 * Shows the profile of `name` until its xiangqi chart has `points` points (the rating is
 * written with the game's last step, which the store commits a moment after the page
 * hears the result).
 */
async function profileWithPoints(page, name, points) {
  for (let attempt = 0; ; attempt++) {
    await page.evaluate(() => { location.hash = "#/leaderboard"; });
    await page.waitForSelector("#leaderboard");
    await page.evaluate((n) => { location.hash = `#/players/${encodeURIComponent(n)}`; }, name);
    await page.waitForSelector("#profile[data-account]");
    const shown = await page.locator('.profile-game[data-game="xiangqi"] .chart-point').count();
    if (shown === points) return;
    assert.ok(attempt < 40, `the profile shows ${shown} points, not ${points}`);
    await sleep(250);
  }
}

test("sign up, a rated game against a bot level, the profile's chart and the leaderboard", { timeout: 90000 }, async () => {
  const person = await atSignIn();
  assert.equal(await person.getAttribute("html", "lang"), "zh-CN");
  assert.equal(await person.textContent("#btn-signup"), "注册");
  await person.fill("#signup-name", NAME);
  await person.fill("#signup-password", PASSWORD);
  await shot(person, T, "01-sign-up");
  await person.click("#btn-signup");
  await person.waitForSelector("#lobby:not([hidden])");
  await person.waitForSelector('#conn-state[data-state="online"]');
  assert.equal(await person.textContent("#who-account"), NAME);
  assert.equal(await person.textContent("#account-link"), "我的账户");
  assert.ok(await person.locator("#change-name").isHidden(), "an account's name is not changed here");

  // A rated table against the beginner bot, as Red.
  await person.selectOption("#create-seat", "0");
  await person.check("#create-bots");
  await person.selectOption("#create-bot-strength", "beginner");
  await person.check("#create-rated");
  assert.equal(await person.textContent('label:has(#create-rated)'), " 计分对局");
  await shot(person, T, "02-lobby-rated");
  await person.click("#btn-create");
  await person.waitForSelector("#table:not([hidden])");
  await person.waitForSelector('.clock[data-side="black"] .badge.bot:not([hidden])');
  await person.waitForSelector("text=轮到你走棋");
  await clickMove(person, "h2e2");
  await waitMoves(person, 2);
  await person.waitForSelector("text=轮到你走棋");
  await playSomeMove(person);
  await waitMoves(person, 4);
  await person.click("#btn-resign");
  await person.click("#btn-resign");
  await person.waitForSelector("#result:not(.hidden)");
  await shot(person, T, "03-resigned");

  // The profile: the xiangqi rating, its chart with the game's point, the game listed.
  await profileWithPoints(person, NAME, 1);
  const section = person.locator('.profile-game[data-game="xiangqi"]');
  assert.match(await section.locator(".profile-rating").textContent(), /1 盘计分对局/);
  assert.equal(await section.locator("svg.rating-chart").getAttribute("data-points"), "1");
  const rating = await section.locator("strong[data-rating]").getAttribute("data-rating");
  await person.locator("#profile-games tr[data-room]").first().waitFor();
  await shot(person, T, "04-profile-chart");

  // 我的对局: the account's games, this one marked as rated.
  await person.click("#my-games");
  await person.waitForSelector("#records-list tr[data-room]");
  assert.equal(await person.locator('#records-list tr[data-rated="true"]').count(), 1);
  await shot(person, T, "05-my-games-rated");

  // The leaderboard lists the player with the profile's rating.
  await person.click("#leaderboard-link");
  await person.waitForSelector("#leaderboard table");
  const row = person.locator("#leaderboard tbody tr", { hasText: NAME });
  assert.equal(await row.count(), 1);
  assert.equal(await row.locator("td[data-rating]").getAttribute("data-rating"), rating);
  assert.equal(await person.textContent("#ratings-title"), "象棋排行榜");
  await shot(person, T, "06-leaderboard");

  // Another browser: a wrong password is told in Chinese, nobody is signed in.
  const other = await atSignIn();
  await other.fill("#signin-name", NAME);
  await other.fill("#signin-password", "wrong password");
  await other.click("#btn-signin");
  await other.waitForFunction(() => document.querySelector("#account-error")?.textContent);
  assert.equal(await other.textContent("#account-error"), "名字或密码错误。");
  await shot(other, T, "07-wrong-password");
  assert.ok(await other.locator("#signin-form").isVisible());

  assert.deepEqual(person.errors, []);
  // The refused sign-in's 401 is the browser's own console line, nothing else.
  assert.deepEqual(other.errors.filter((e) => !/status of 401/.test(e)), []);
});
