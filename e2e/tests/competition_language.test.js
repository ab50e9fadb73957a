// The competition pages in Chinese for a visitor with no name (the usual reader of a public
// page or the director's sign-in; zh-CN, a desktop and a 390×844 phone): the language switch
// redraws them at once, no reload, and the header shows no "正在连接…" (there is no
// connection to wait for).

import { test } from "node:test";
import assert from "node:assert/strict";
import { serverAndBrowser, personPage, shot } from "../harness.js";

const T = "competition_language";
const env = serverAndBrowser();

for (const [form, opts] of [["desktop", {}], ["phone", { viewport: { width: 390, height: 844 }, isMobile: true }]]) {
  test(`the competition pages switch language for a visitor with no name (${form})`, async () => {
    const page = await personPage(env.browser, { lang: null, locale: "zh-CN", ...opts });
    await page.goto(`${env.server.url}/#/director`);
    await page.waitForSelector("#director-login");
    await page.waitForSelector("#competitions h2:has-text('裁判')");
    assert.equal(await page.isVisible("#conn-state"), false, "the header waits for a connection");
    await shot(page, T, `${form}-01-director-zh`);
    await page.selectOption("#lang", "en");
    await page.waitForSelector("#competitions h2:has-text(\"Director's page\")");
    await page.waitForSelector("#btn-login:has-text('Sign in')");
    await shot(page, T, `${form}-02-director-en`);

    await page.goto(`${env.server.url}/#/competitions`);
    await page.waitForSelector("#competitions:not([hidden])");
    await page.waitForSelector("#competitions :text('No competition yet.')");
    await page.selectOption("#lang", "zh-CN");
    await page.waitForSelector("#competitions h2:has-text('比赛')");
    assert.equal(await page.isVisible("#conn-state"), false);
    await shot(page, T, `${form}-03-competitions-zh`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
