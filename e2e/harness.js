// Shared by the end-to-end tests: the real qipai-server on a free port, headless Chromium
// through playwright-core, pages that fail the test on any console error, screenshots.

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync } from "node:fs";
import os from "node:os";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { before, after } from "node:test";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, "..");
/** Screenshots of every screen, kept by CI as artifacts. */
export const ARTIFACTS = process.env.QIPAI_E2E_ARTIFACTS ?? path.join(here, "artifacts");
const SERVER_BIN = process.env.QIPAI_SERVER_BIN ?? path.join(ROOT, "target", "debug", "qipai-server");
const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

/** A port the OS says is free now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts qipai-server on `port` (default: a free one) with `env` overrides
 * (QIPAI_SECTION__KEY) and waits for /healthz. `tuolajiSeed` deals every Tuolaji table from
 * a fixed seed (QIPAI_TUOLAJI__SEED: the environment may set any key, the defaults keep the
 * rest). Returns { url, port, stop() }.
 */
export async function startServer(env = {}, port = undefined, { tuolajiSeed } = {}) {
  port ??= await freePort();
  const seed = tuolajiSeed != null ? { QIPAI_TUOLAJI__SEED: String(tuolajiSeed) } : {};
  // Each server its own store file: no test reopens another's rooms.
  const store = path.join(mkdtempSync(path.join(os.tmpdir(), "qipai-e2e-store-")), "qipai.db");
  const child = spawn(SERVER_BIN, [], {
    env: {
      ...process.env, RUST_LOG: "warn", QIPAI_SERVER__ADDR: `127.0.0.1:${port}`,
      QIPAI_STORE__URL: store, ...seed, ...env,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15000;
  for (;;) {
    if (child.exitCode != null) throw new Error(`qipai-server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error("qipai-server did not answer /healthz within 15 s");
    }
    await sleep(50);
  }
  return {
    url,
    port,
    async stop() {
      if (child.exitCode == null) child.kill("SIGTERM");
      await Promise.race([exited, sleep(5000)]);
      if (child.exitCode == null) child.kill("SIGKILL");
    },
  };
}

/**
 * Starts a server (with `startServer`'s arguments) and a browser before a file's tests and
 * stops both after them. Returns { server, browser }; a test may replace `server` (a restart).
 */
export function serverAndBrowser(...serverArgs) {
  const env = { server: undefined, browser: undefined };
  before(async () => {
    env.server = await startServer(...serverArgs);
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.stop();
  });
  return env;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Headless Chromium. Playwright gives each launch a fresh, temporary user-data-dir (it
 * refuses one in `args`), and every context below is a separate profile: its own
 * localStorage, so each page is a different person.
 */
export function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
}

/**
 * A page for one person, in its own context; every console error or uncaught exception is
 * recorded in `page.errors` (the tests assert it stays empty).
 */
/** `type: "snapshot"` as MessagePack writes it: the key, then the value as a fixstr. */
const SNAPSHOT_TYPE = Buffer.concat([Buffer.from([0xa4]), Buffer.from("type"), Buffer.from([0xa8]), Buffer.from("snapshot")]);

/**
 * `lang` ("en" by default, as the older tests read English) is kept in the page's
 * localStorage before it loads; `lang: null` leaves the choice to the browser's language,
 * `locale` (e.g. "zh-CN": Chromium's navigator.languages and Accept-Language).
 */
export async function personPage(browser, { viewport = { width: 1280, height: 860 }, isMobile = false, lang = "en", locale = undefined } = {}) {
  const context = await browser.newContext({ viewport, isMobile, hasTouch: isMobile, deviceScaleFactor: 1, locale });
  if (WEB_DIR) await servePageFromDisk(context);
  if (lang) await context.addInitScript((l) => { if (!localStorage.getItem("qipai.lang")) localStorage.setItem("qipai.lang", l); }, lang);
  const page = await context.newPage();
  page.errors = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") page.errors.push(`console: ${msg.text()}`);
  });
  page.on("pageerror", (err) => page.errors.push(`exception: ${err.message}`));
  // Every `snapshot` request the page sends (a MessagePack map whose `type` is the string
  // "snapshot"): events are enough, so only a join, a reconnection or a gap may ask.
  page.snapshotRequests = 0;
  page.on("websocket", (ws) => ws.on("framesent", ({ payload }) => {
    if (Buffer.from(payload).includes(SNAPSHOT_TYPE)) page.snapshotRequests += 1;
  }));
  page.setDefaultTimeout(10000);
  return page;
}

/**
 * `QIPAI_E2E_WEB_DIR` (e.g. `web`): the page's files but index.html come from that folder
 * instead of the ones embedded in the server binary, so a change to the page's scripts and
 * styles is tried without rebuilding the server. Only for working on the page: CI tests what the binary serves.
 */
const WEB_DIR = process.env.QIPAI_E2E_WEB_DIR ? path.resolve(ROOT, process.env.QIPAI_E2E_WEB_DIR) : null;

async function servePageFromDisk(context) {
  // The document itself comes from the server: one the test fulfilled would count as a
  // public page, which Chromium forbids to open a WebSocket to 127.0.0.1.
  await context.route((url) => !/^\/(ws|healthz|metrics|api)\b|^\/$|^\/index\.html$/.test(url.pathname), async (route) => {
    const { pathname } = new URL(route.request().url());
    const file = path.join(WEB_DIR, pathname);
    if (file.startsWith(WEB_DIR) && existsSync(file)) await route.fulfill({ path: file });
    else await route.continue();
  });
}

/** Saves a screenshot as ARTIFACTS/<test>/<name>.png. */
export async function shot(page, test, name) {
  const dir = path.join(ARTIFACTS, test);
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

/**
 * What a page shows, in one line, for a failure message: the visible screen, the
 * connection's state, the Tuolaji phase and action buttons if a table is open, and the
 * errors the page recorded (so a step that waits in vain says what the page did instead).
 */
export async function describePage(page) {
  const seen = await page.evaluate(() => ({
    screens: [...document.querySelectorAll("main > section")]
      .filter((el) => !el.hidden).map((el) => el.id).filter(Boolean),
    connection: document.querySelector("#conn-state")?.dataset.state ?? null,
    phase: document.querySelector("#tl-phase")?.textContent ?? null,
    actions: [...document.querySelectorAll("#tl-actions button")].map((b) => `${b.id || b.textContent}${b.disabled ? " (disabled)" : ""}`),
  }));
  return JSON.stringify({ ...seen, errors: page.errors });
}

/**
 * The dealer puts back the six cards the server suggests: Suggest selects them, which
 * enables Put back. If it never is, the failure says what the page shows instead.
 */
export async function putBackSuggested(page) {
  await page.click("#btn-hint");
  await page.waitForSelector("#btn-put-back:not([disabled])", { timeout: 10000 })
    .catch(async (err) => { throw new Error(`${err.message}\npage: ${await describePage(page)}`); });
  await page.click("#btn-put-back");
}

/** Opens the page and enters the lobby as `name`. */
export async function enterLobby(page, url, name) {
  await page.goto(url);
  await page.fill("#name-input", name);
  await page.click("#btn-name");
  await page.waitForSelector("#lobby:not([hidden])");
  await page.waitForSelector('#conn-state[data-state="online"]');
}

/** From the lobby, opens a xiangqi table as Red against the beginner bot, and waits for it. */
export async function playTheXiangqiBot(page) {
  await page.selectOption("#create-seat", "0");
  await page.check("#create-bots");
  await page.selectOption("#create-bot-strength", "beginner");
  await page.click("#btn-create");
  await page.waitForSelector("#table:not([hidden])");
  await page.waitForSelector('.clock[data-side="black"] .badge.bot:not([hidden])');
}

/** Plays a move by clicking its two points. */
export async function clickMove(page, iccs) {
  const [from, to] = [iccs.slice(0, 2), iccs.slice(2, 4)];
  const target = `[data-target="${to}"]`;
  // A click on a piece before the page knows the move is the player's (the `turn` is still
  // on its way) selects nothing, and nothing would follow; so click again until the piece
  // is selected (clicking the selected piece again keeps it selected).
  for (let tries = 0; tries < 20; tries++) {
    await page.click(`[data-sq="${from}"]`);
    const shown = await page
      .waitForSelector(`${target}, .xq-selected, .dr-selected`, { timeout: 1000 })
      .catch(() => null);
    if (shown) break;
  }
  await page.waitForSelector(target);
  await page.click(`[data-sq="${to}"]`);
}

/** Red moves tried in this order; the first the position allows is played. */
const WISHES = ["h2e2", "h0g2", "i0h0", "b0c2", "a0a1", "g3g4", "c3c4", "e3e4"];

/**
 * Plays one legal Red move by clicking: the first of WISHES the page offers, else the first
 * target of any Red piece. A bot's answer may block a wish (a cannon on h1 blocks the horse's
 * h0g2), so a test that plays the bot names no fixed move after its first. Clicking another
 * Red piece never plays a move (no piece takes its own side's), so a wish that is not offered
 * only moves the selection.
 */
export async function playSomeMove(page) {
  const redAt = (sq) => page.locator(`.xq-piece.red[data-piece="${sq}"]`).count();
  for (const wish of WISHES) {
    const [from, to] = [wish.slice(0, 2), wish.slice(2, 4)];
    if (!await redAt(from)) continue;
    await page.click(`[data-sq="${from}"]`);
    if (await page.locator(`[data-target="${to}"]`).count()) {
      await page.click(`[data-sq="${to}"]`);
      return wish;
    }
  }
  const squares = await page.$$eval(".xq-piece.red[data-piece]", (els) => els.map((e) => e.dataset.piece));
  for (const from of squares) {
    await page.click(`[data-sq="${from}"]`);
    const target = page.locator("[data-target]").first();
    if (await target.count()) {
      const to = await target.getAttribute("data-target");
      await page.click(`[data-sq="${to}"]`);
      return from + to;
    }
  }
  throw new Error("no legal move offered");
}

/** Plays a move by dragging the piece with the mouse. */
export async function dragMove(page, iccs) {
  const box = async (sq) => page.locator(`[data-sq="${sq}"]`).boundingBox();
  const from = await box(iccs.slice(0, 2));
  const to = await box(iccs.slice(2, 4));
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 8 });
  await page.mouse.up();
}

/** Waits until the page's move list holds `n` moves. */
export async function waitMoves(page, n) {
  await page.waitForFunction(
    (n) => [...document.querySelectorAll("#moves .mv")].filter((s) => s.textContent && s.textContent !== "…").length === n,
    n,
  );
}

/** The moves in the page's list, in Chinese notation. */
export function movesOf(page) {
  return page.$$eval("#moves .mv", (els) => els.map((e) => e.textContent).filter((t) => t && t !== "…"));
}
