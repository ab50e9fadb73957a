// The competition pages' pure functions (web/competition.js) in node: the addresses they
// answer, an entry's players in one line, a result in words from the first-named side, and
// 级差 with its sign.

import { test } from "node:test";
import assert from "node:assert/strict";
import { setLanguage } from "../../web/i18n.js";
import { competitionRoute, playersText, resultText, signed, RESULTS } from "../../web/competition.js";

test("the addresses of the competition pages", () => {
  assert.deepEqual(competitionRoute("#/competitions"), { page: "competition", id: null });
  assert.deepEqual(competitionRoute("#/competitions/12"), { page: "competition", id: "12" });
  assert.deepEqual(competitionRoute("#/director"), { page: "director", id: null });
  for (const other of ["", "#/games", "#/competitions/x", "#/competitions/1/2", "#/director/1"]) {
    assert.equal(competitionRoute(other), null, other);
  }
});

test("players, results and level differences in words", async () => {
  await setLanguage("en");
  assert.equal(playersText(["张一", "张二"]), "张一 / 张二");
  assert.equal(playersText([{ name: "Zhao" }]), "Zhao");
  const first = { players: ["A1", "A2"] };
  const second = { players: ["B1", "B2"] };
  assert.equal(resultText("first_wins", first, second), "A1 / A2 won");
  assert.equal(resultText("second_forfeits", first, second), "B1 / B2 forfeited");
  assert.equal(resultText(null, first, second), "–");
  for (const r of RESULTS) assert.ok(!resultText(r, first, second).startsWith("comp."), r);
  assert.equal(signed(2), "+2");
  assert.equal(signed(-3), "−3");
  assert.equal(signed(0), "0");
  await setLanguage("zh-CN");
  assert.equal(resultText("first_wins", first, second), "A1 / A2 胜");
  assert.equal(resultText("both_forfeit", first, second), "双方弃权");
  await setLanguage("en");
});
