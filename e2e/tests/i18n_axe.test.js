// An automated accessibility check of each screen: axe-core (e2e's npm
// devDependency) injected with playwright's addScriptTag into the lobby, a xiangqi table, a
// Tuolaji table and a result, "my games" and a replay, a competition's public page and the
// director's page (signed out and in), in Chinese and in English, on a desktop and on a phone held
// upright (390×844). No serious or critical violation may be found. Screenshots of each
// screen in both languages go to artifacts/i18n_axe/.

import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { serverAndBrowser, personPage, enterLobby, shot } from "../harness.js";
import { DIRECTOR_ENV, DIRECTOR_PASSWORD, seedCompetition } from "../competition.js";

const T = "i18n_axe";
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const env = serverAndBrowser({ QIPAI_TUOLAJI__DEAL_INTERVAL_MS: "20", ...DIRECTOR_ENV }, undefined, { tuolajiSeed: 7 });

/** axe's serious and critical violations on the page now, as "rule: target" lines. */
async function violations(page) {
  if (!(await page.evaluate(() => typeof window.axe !== "undefined"))) await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(" ")} — ${n.failureSummary?.split("\n")[1]?.trim() ?? ""}`));
}

for (const lang of ["zh-CN", "en"]) {
  for (const [form, opts] of [["desktop", {}], ["phone", { viewport: { width: 390, height: 844 }, isMobile: true }]]) {
    test(`every screen passes axe (${lang}, ${form})`, { timeout: 90000 }, async () => {
      const page = await personPage(env.browser, { lang, ...opts });
      const found = {};
      const check = async (screen) => {
        await page.waitForTimeout(150); // let the redraw of the last event settle
        found[screen] = await violations(page);
        await shot(page, T, `${lang}-${form}-${screen}`);
      };
      await enterLobby(page, env.server.url, lang === "en" ? "Ann" : "安");
      await page.waitForSelector("#tables .table-row, #tables p");
      await check("1-lobby");

      // A xiangqi table against the bot, then its result (resignation).
      await page.check("#create-bots");
      await page.selectOption("#create-bot-strength", "beginner");
      await page.click("#btn-create");
      await page.waitForSelector("#table:not([hidden]) svg.xq-board");
      await page.waitForSelector("#btn-resign");
      await check("2-xiangqi-table");
      await page.click("#btn-resign");
      await page.click("#btn-resign");
      await page.waitForSelector("#result:not(.hidden)");
      await check("3-xiangqi-result");
      await page.click("#btn-back");
      await page.waitForSelector("#lobby:not([hidden])");

      // "My games" and the replay of that game.
      await page.click("#my-games");
      await page.waitForSelector("#records:not([hidden]) .records-table");
      await check("5-my-games");
      await page.click("[data-replay]");
      await page.waitForSelector("#replay-steps [data-step]");
      await check("6-xiangqi-replay");
      await page.click("#btn-records-close");
      await page.waitForSelector("#lobby:not([hidden])");

      // A Tuolaji table with three bots, once the hand is in the player's hands.
      await page.click("#btn-tuolaji-bots");
      await page.waitForSelector("#table:not([hidden]) #hand");
      await page.waitForFunction(() => document.querySelectorAll("#hand .card").length >= 20, null, { timeout: 30000 });
      await check("4-tuolaji-table");
      await page.click("#btn-leave");
      await page.click("#btn-leave.danger"); // leaving a seat asks twice
      await page.waitForSelector("#lobby:not([hidden])");

      // A competition's public page (a round paired, a result and a correction), and the
      // director's page signed out and signed in.
      const id = await seedCompetition(env.server.url, `${lang} ${form}`);
      await page.click("#competitions-link");
      await page.click(`a[href="#/competitions/${id}"]`);
      await page.waitForSelector("#corrections-table");
      await check("7-competition");
      await page.evaluate(() => { location.hash = "#/director"; });
      await page.waitForSelector("#director-login");
      await check("8-director-sign-in");
      await page.fill("#dir-password", DIRECTOR_PASSWORD);
      await page.click("#btn-login");
      await page.waitForSelector("#director-create", { timeout: 30000 }); // Argon2 is slow in a debug build
      await check("9-director");
      await page.click("#btn-logout");
      await page.waitForSelector("#director-login");

      assert.deepEqual(found, Object.fromEntries(Object.keys(found).map((k) => [k, []])));
      assert.deepEqual(page.errors, []);
    });
  }
}
