import { startServer, launch, personPage, enterLobby, sleep } from "/work/main/e2e/harness.js";
const browser = await launch();
for (const seed of process.argv.slice(2).map(Number)) {
  const server = await startServer({ QIPAI_TUOLAJI__DEAL_INTERVAL_MS: process.env.DI ?? "10", QIPAI_TUOLAJI__BID_WINDOW_MS: "4000", QIPAI_TUOLAJI__BETWEEN_HANDS_MS: "60000" }, undefined, { tuolajiSeed: seed });
  const p = await personPage(browser);
  await enterLobby(p, server.url, "Wu");
  await p.click("text=New Tuolaji table with its rules");
  await p.selectOption("#tl-turn", "60000");
  await p.check("#tl-bots");
  await p.click("#btn-create-tuolaji");
  await p.waitForSelector("#table:not([hidden])");
  let bid = false, err = null;
  for (let i = 0; i < 300; i++) {
    const phase = await p.evaluate(() => document.querySelector("#tl-phase")?.textContent ?? "");
    const button = p.locator("[data-bid]").first();
    if (!bid) bid = await p.evaluate(() => { const b = document.querySelector("[data-bid]:not([disabled])"); b?.click(); return Boolean(b); });
    if (!/Dealing|Last chance/.test(phase)) break;
    await sleep(50);
  }
  await sleep(1500);
  const bids = await p.$$eval(".tl-bid", els => els.map(e => e.textContent));
  const putBack = await p.locator("#btn-put-back").count();
  const phase = await p.evaluate(() => document.querySelector("#tl-phase")?.textContent ?? "");
  console.log(`seed ${seed}: bid ${bid} ${err ?? ""} bids ${JSON.stringify(bids)} putBack ${putBack} phase ${phase}`);
  await p.context().close();
  await server.stop();
}
await browser.close();
