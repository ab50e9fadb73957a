// Competitions for the browser tests: the director's credential the test servers
// are started with, and a competition set up over the HTTP API (PROTOCOL.md §17) for tests
// that look at its pages rather than build it.

import { copyFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { shot, ARTIFACTS, ROOT } from "./harness.js";

const SCREENSHOTS = path.join(ROOT, "e2e", "screenshots");

/**
 * A screenshot taker for test `test`: `keep(page, n, name, { fullPage })` saves the page in
 * the artifacts and as e2e/screenshots/<prefix><name>.png too (committed: README cites them).
 */
export function keeper(test, prefix) {
  return async (page, n, name, opts = {}) => {
    await page.waitForTimeout(100);
    if (opts.fullPage) {
      mkdirSync(path.join(ARTIFACTS, test), { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, test, `${n}-${name}.png`), fullPage: true });
    } else {
      await shot(page, test, `${n}-${name}`);
    }
    mkdirSync(SCREENSHOTS, { recursive: true });
    copyFileSync(path.join(ARTIFACTS, test, `${n}-${name}.png`), path.join(SCREENSHOTS, `${prefix}${name}.png`));
  };
}

/** The director's page says `re` (its message box, `kind` ok or error). */
export async function says(page, kind, re) {
  await page.waitForFunction(([k, src]) => {
    const box = document.querySelector(`#director-message.${k}`);
    return box && new RegExp(src).test(box.textContent);
  }, [kind, re.source], { timeout: 30000 }); // a sign-in checks Argon2: slow in a debug build
}

/** The director's password in the browser tests. */
export const DIRECTOR_PASSWORD = "e2e director 裁判";

/**
 * Its hash, made once with `echo -n 'e2e director 裁判' | qipai-server hash-password`
 * (README "Running a competition"): the server keeps only the hash.
 */
export const DIRECTOR_HASH = "$argon2id$v=19$m=19456,t=2,p=1$lNXznXj5+xMglP/7BGGLSA$0qOszrbnX6PTXsMVoYdfHpz5A6z569or78gNh65Sp8U";

/** The server's environment for a director: give it to `startServer`. */
export const DIRECTOR_ENV = { QIPAI_DIRECTOR__PASSWORD_HASH: DIRECTOR_HASH };

/** Four xiangqi players of four departments (the registration form, with a contact). */
export const XIANGQI_FORM = `department,event,pair,name,phone,joined_group
机关工会,xiangqi,,Zhao,13700000001,是
后勤工会,xiangqi,,Qian,,
教学工会,xiangqi,,Sun,,
科研工会,xiangqi,,Li,,
`;

/** A JSON request to the server at `url`; throws on a refusal. */
export async function call(url, path, { token, method = "GET", body } = {}) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    body: body == null ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const v = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${JSON.stringify(v)}`);
  return v;
}

/**
 * A xiangqi competition of four players with round 1 paired, table 1's result recorded and
 * then corrected with a reason, over the API. Returns its id.
 */
export async function seedCompetition(url, name = "Works cup 工会杯") {
  const { token } = await call(url, "/api/director/login", { method: "POST", body: { name: "director", password: DIRECTOR_PASSWORD } });
  const c = await call(url, "/api/director/competitions", { token, method: "POST", body: { name, event: "xiangqi", rounds: 2, seed: 11 } });
  await call(url, `/api/director/competitions/${c.id}/entries`, { token, method: "POST", body: XIANGQI_FORM });
  await call(url, `/api/director/competitions/${c.id}/rounds`, { token, method: "POST" });
  await call(url, `/api/director/competitions/${c.id}/results`, { token, method: "POST", body: { round: 1, table: 1, result: "first_wins" } });
  await call(url, `/api/director/competitions/${c.id}/corrections`, {
    token, method: "POST", body: { round: 1, table: 1, result: "draw", reason: "arbiter: the clock was set wrong" },
  });
  return c.id;
}
