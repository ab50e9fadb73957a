// The page in Chinese: browsers whose language is zh-CN (nothing kept in
// localStorage) get the Chinese page. One whole Tuolaji hand against three bots, with a
// follow the server refuses shown as its Chinese explanation (第十一条2：…), and a xiangqi
// game to checkmate with a refused second draw offer in Chinese (第2.8条：…). Screenshots
// into artifacts/i18n_zh/.

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, personPage, shot, sleep, clickMove, waitMoves, putBackSuggested } from "../harness.js";

const T = "i18n_zh";
const env = serverAndBrowser({
  QIPAI_TUOLAJI__DEAL_INTERVAL_MS: "30",
  QIPAI_TUOLAJI__TRICK_PAUSE_MS: "300",
  QIPAI_TUOLAJI__BID_WINDOW_MS: "3000",
  QIPAI_TUOLAJI__BETWEEN_HANDS_MS: "60000",
}, undefined, { tuolajiSeed: 7 });

/** A page for a person whose browser speaks Chinese, entered into the lobby as `name`. */
async function chinesePerson(name, opts = {}) {
  const page = await personPage(env.browser, { lang: null, locale: "zh-CN", ...opts });
  await page.goto(env.server.url);
  await page.fill("#name-input", name);
  await page.click("#btn-name");
  await page.waitForSelector("#lobby:not([hidden])");
  await page.waitForSelector('#conn-state[data-state="online"]');
  return page;
}

test("a Tuolaji hand in Chinese, with a refused follow explained in Chinese", { timeout: 170000 }, async () => {
  const person = await chinesePerson("吴");
  assert.equal(await person.getAttribute("html", "lang"), "zh-CN");
  assert.equal(await person.inputValue("#lang"), "zh-CN");
  assert.equal(await person.textContent("#btn-quick-tuolaji"), "快速开始");
  await shot(person, T, "01-lobby-zh");

  await person.click("#tuolaji-play summary");
  await person.selectOption("#tl-turn", "60000");
  await person.check("#tl-bots");
  await person.click("#btn-create-tuolaji");
  await person.waitForSelector("#table:not([hidden])");
  await person.waitForFunction(() => document.querySelectorAll(".tl-seat .badge.bot").length === 3);
  assert.match(await person.textContent("#tl-info"), /级牌/);

  let refusal = null;
  let plays = 0;
  for (let i = 0; i < 4000; i++) {
    if (await person.locator("#tl-result").count()) break;
    const bid = person.locator("[data-bid]:not([disabled])").first();
    if (await bid.count()) await bid.click({ timeout: 1000 }).catch(() => {});
    if (await person.locator("[data-suit]").count()) {
      await person.locator("[data-suit]").first().click();
    } else if (await person.locator("#btn-put-back").count()) {
      await shot(person, T, "02-bottom-zh");
      await putBackSuggested(person);
    } else if (await person.locator("#btn-play").count() && await person.locator("#btn-hint").count()) {
      const following = /跟/.test(await person.textContent("#tl-actions"));
      await person.click("#btn-hint");
      if (following && !refusal) {
        // Try the same number of cards from the groups the suggestion does not use: while
        // the person holds cards of the led type, the server refuses it (第十一条2).
        const other = await person.evaluate(() => {
          const chosen = [...document.querySelectorAll("#hand .card.selected")];
          const groups = new Set(chosen.map((c) => c.closest(".tl-group")));
          const rest = [...document.querySelectorAll("#hand [data-index]")].filter((c) => !groups.has(c.closest(".tl-group")));
          return rest.length >= chosen.length ? rest.slice(0, chosen.length).map((c) => c.dataset.index) : null;
        });
        if (other) {
          await person.click("#btn-clear");
          // Selected with the keyboard: focus a card, Space.
          for (const index of other) {
            await person.focus(`#hand [data-index="${index}"]`);
            await person.keyboard.press("Space");
          }
          await person.click("#btn-play:not([disabled])");
          const toast = person.locator(".toast >> text=/^第十一条/").last();
          const refused = await toast.waitFor({ timeout: 1500 }).then(() => true, () => false);
          if (refused) {
            refusal = await toast.textContent();
            await shot(person, T, "03-refused-follow-zh");
            await person.click("#btn-hint");
          } else {
            plays += 1;
            continue;
          }
        }
      }
      await person.click("#btn-play:not([disabled])");
      plays += 1;
    }
    await sleep(40);
  }
  await person.waitForSelector("#tl-result", { timeout: 20000 });
  await shot(person, T, "04-hand-result-zh");
  assert.match(await person.textContent("#tl-result"), /本副结束：闲家得 -?\d+ 分/);
  assert.ok(refusal, `a follow was refused (${plays} plays)`);
  // The refusal in Chinese with its article, the led type and the cards held, never the
  // server's English sentence.
  assert.match(refusal, /^第十一条2：/);
  assert.match(refusal, /[红黑梅方主]/);
  assert.doesNotMatch(refusal, /you|must|hold/i);
  console.log(`refused follow: ${refusal}`);

  // The switch in the header: English at once, kept for the next visit.
  await person.selectOption("#lang", "en");
  await person.waitForSelector("#tl-result >> text=Hand over: defenders");
  await shot(person, T, "05-hand-result-en");
  await person.reload();
  await person.waitForSelector("#table:not([hidden])");
  assert.equal(await person.getAttribute("html", "lang"), "en");
  await person.selectOption("#lang", "zh-CN");
  assert.match(await person.textContent("#tl-info"), /级牌/);
  assert.deepEqual(person.errors, []);
});

test("a xiangqi game in Chinese, with a refused draw offer explained in Chinese", async () => {
  const red = await chinesePerson("王");
  const black = await chinesePerson("李");
  await red.selectOption("#create-tc", "5+3");
  await red.selectOption("#create-seat", "0");
  await red.click("#btn-create");
  await red.waitForSelector("text=等待对手入座");
  const seat = black.locator("[data-join$=':1']").first();
  await seat.waitFor();
  await seat.click();
  await red.waitForSelector("text=轮到你走棋。");
  await black.waitForSelector("text=红方走棋。");
  await shot(red, T, "10-xiangqi-zh");

  await clickMove(red, "b2b4");
  await waitMoves(black, 1);
  // A draw offer, its refusal, and a second offer the server refuses (2.8: a rate limit).
  await black.click("#btn-offer-draw");
  await red.waitForSelector("text=黑方提和。");
  await red.click("#btn-decline-draw");
  await black.waitForSelector("#btn-offer-draw");
  await black.click("#btn-offer-draw");
  const toast = black.locator(".toast >> text=/^第2.8条：每走 10 步才能提和一次/");
  await toast.waitFor();
  await shot(black, T, "11-refused-draw-offer-zh");

  await clickMove(black, "a6a5");
  await waitMoves(red, 2);
  await clickMove(red, "b4c4");
  await waitMoves(black, 3);
  await clickMove(black, "f9e8");
  await waitMoves(red, 4);
  await clickMove(red, "c4c9");
  for (const page of [red, black]) {
    await page.waitForSelector("#result:not(.hidden)");
    assert.match(await page.textContent("#result"), /红方胜：将死。/);
  }
  assert.match(await red.textContent("#result"), /你赢了！/);
  assert.match(await black.textContent("#result"), /你输了。/);
  assert.equal(await red.textContent("#moves-title"), "棋谱");
  await shot(red, T, "12-xiangqi-result-zh");
  assert.deepEqual(red.errors, []);
  assert.deepEqual(black.errors, []);
});
