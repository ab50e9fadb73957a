// One session in two browsers (the same resume token in two profiles: a desktop and a
// 390×844 phone, both Chinese): the browser that opens last takes the seat; the other is
// told `playing_elsewhere`, says 你在别处登录 with a button to take the seat back, and does
// not reconnect by itself (no seat flipping back and forth). Its button takes the seat back,
// and then the phone is the one told. Screenshots into artifacts/session_elsewhere/.

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, personPage, shot, sleep, clickMove, waitMoves, playTheXiangqiBot } from "../harness.js";

const T = "session_elsewhere";
const env = serverAndBrowser();

/** A Chinese browser's page; `socketsOpened` counts the WebSockets it opens. */
async function chinesePage(opts = {}) {
  const page = await personPage(env.browser, { lang: null, locale: "zh-CN", ...opts });
  page.socketsOpened = 0;
  page.on("websocket", () => { page.socketsOpened += 1; });
  return page;
}

/** Waits until the page's bar says the session went elsewhere, offering to take it back. */
async function toldElsewhere(page) {
  await page.waitForSelector('#conn-state[data-state="stopped"]');
  await page.waitForSelector("#btn-play-here");
  assert.match(await page.textContent("#offline"), /你在别处登录/);
  assert.equal(await page.textContent("#btn-play-here"), "在此处继续");
  assert.match(await page.textContent("#conn-state"), /正在别处对局/);
}

test("the same session in two browsers: the one that lost the seat says so and waits", async () => {
  const desk = await chinesePage();
  await desk.goto(env.server.url);
  await desk.fill("#name-input", "吴");
  await desk.click("#btn-name");
  await desk.waitForSelector('#conn-state[data-state="online"]');
  await playTheXiangqiBot(desk);

  // The same session opened on a phone: its storage (the name and the resume token).
  const stored = await desk.evaluate(() => ({ ...localStorage }));
  assert.ok(stored["qipai.resume_token"]);
  const phone = await chinesePage({ viewport: { width: 390, height: 844 }, isMobile: true });
  await phone.context().addInitScript((items) => {
    for (const [k, v] of Object.entries(items)) if (localStorage.getItem(k) == null) localStorage.setItem(k, v);
  }, stored);
  await phone.goto(env.server.url);
  await phone.waitForSelector("#table:not([hidden])");
  await phone.waitForSelector('#conn-state[data-state="online"]');

  // The desktop lost the seat and says so.
  await toldElsewhere(desk);
  await shot(desk, T, "01-desktop-playing-elsewhere");
  const deskSockets = desk.socketsOpened;

  // The phone plays on (a move, the bot's answer) while the desktop stays put.
  await clickMove(phone, "h2e2");
  await waitMoves(phone, 2);
  await shot(phone, T, "02-phone-playing");
  // Longer than the page's first retry (500 ms and its jitter) would wait.
  await sleep(1500);
  assert.equal(desk.socketsOpened, deskSockets, "the desktop reconnected by itself");
  assert.equal(await desk.getAttribute("#conn-state", "data-state"), "stopped");
  assert.equal(await phone.getAttribute("#conn-state", "data-state"), "online");

  // 在此处继续 on the desktop takes the seat back: the phone is told now.
  await desk.click("#btn-play-here");
  await desk.waitForSelector('#conn-state[data-state="online"]');
  await desk.waitForSelector("#table:not([hidden])");
  await waitMoves(desk, 2);
  await toldElsewhere(phone);
  await shot(phone, T, "03-phone-playing-elsewhere");
  await shot(desk, T, "04-desktop-took-it-back");
  assert.deepEqual(desk.errors, []);
  assert.deepEqual(phone.errors, []);
});
