import { startServer, launch, personPage, enterLobby, shot, sleep } from "/work/main/e2e/harness.js";
for (let k = 0; k < 12; k++) {
const server = await startServer();
const browser = await launch();
const p = await personPage(browser);
const log = [];
p.on("websocket", ws => { ws.on("framereceived", f => log.push("recv " + String(f.payload).replace(/[^\x20-\x7e]/g, ".").slice(0, 200))); ws.on("framesent", f => log.push("sent " + String(f.payload).replace(/[^\x20-\x7e]/g, ".").slice(0, 200))); });
await enterLobby(p, server.url, "Wu");
await p.selectOption("#create-tc", "5+3");
await p.selectOption("#create-seat", "0");
await p.check("#create-bots");
await p.selectOption("#create-bot-strength", "50");
await p.textContent("#btn-create");
await shot(p, "dbg", "y");
await p.click("#btn-create");
try { await p.waitForSelector("#table:not([hidden])", { timeout: 5000 }); console.log("ok"); }
catch { console.log("FAIL"); console.log(log.filter(l => !/p.ng/.test(l)).join("\n")); console.log(p.errors, await p.textContent("#toasts")); }
await browser.close(); await server.stop();
}
