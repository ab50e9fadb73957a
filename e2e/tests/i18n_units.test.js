// The page's catalogues, in node:
// - zh-CN and en have the same keys, and each key the same {placeholders};
// - every ErrorCode of protocol/src/error.rs has an `err.<code>` entry in both;
// - every t("key") the page calls exists;
// - no UI string outside the catalogues: see `uiLiterals` for the rule;
// - a refusal renders from its code and details, e.g. 第十一条2：需要跟一对红桃，你有 9♥ 9♥.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../harness.js";
import zh from "../../web/i18n/zh-CN.js";
import en from "../../web/i18n/en.js";
import { setLanguage, translate, detectLanguage, loadLanguage } from "../../web/i18n.js";
import { errorText } from "../../web/errors.js";

const WEB = path.join(ROOT, "web");
const read = (p) => readFileSync(p, "utf8");
/** The page's own modules: web/*.js, not the catalogues or vendored code. */
const pageModules = () => readdirSync(WEB).filter((f) => f.endsWith(".js")).map((f) => path.join(WEB, f));

const placeholders = (text) => {
  const all = typeof text === "object" ? Object.values(text).join(" ") : String(text);
  return [...new Set(all.match(/\{\w+\}/g) ?? [])].sort();
};

test("the two catalogues have the same keys and the same placeholders", () => {
  assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort());
  for (const key of Object.keys(en)) {
    // A Chinese text may drop a plural's {count} word form for {n} (一对/两对), nothing else.
    const a = placeholders(en[key]).filter((p) => p !== "{count}" && p !== "{n}");
    const b = placeholders(zh[key]).filter((p) => p !== "{count}" && p !== "{n}");
    assert.deepEqual(b, a, `placeholders of ${key}`);
    assert.ok(String(zh[key]).trim() || typeof zh[key] === "object", `${key} is empty in zh-CN`);
  }
});

test("every ErrorCode in protocol/src/error.rs has an entry in both catalogues", () => {
  const rust = read(path.join(ROOT, "protocol", "src", "error.rs"));
  const block = rust.slice(rust.indexOf("error_codes! {"), rust.indexOf("pub struct ErrorDetails"));
  const codes = [...block.matchAll(/^\s*[A-Z]\w*\s*=\s*"([a-z_]+)",/gm)].map((m) => m[1]);
  assert.ok(codes.length >= 60, `found ${codes.length} codes: the parse broke`);
  assert.ok(codes.includes("must_match_structure") && codes.includes("rate_limited"));
  for (const code of codes) {
    assert.ok(en[`err.${code}`], `en lacks err.${code}`);
    assert.ok(zh[`err.${code}`], `zh-CN lacks err.${code}`);
  }
});

test("every key the page asks for is in the catalogue", () => {
  for (const file of pageModules()) {
    for (const [, key] of read(file).matchAll(/\bt\("([^"]+)"/g)) {
      assert.ok(key in en, `${path.basename(file)} asks for ${key}`);
    }
  }
  for (const [, key] of read(path.join(WEB, "index.html")).matchAll(/data-i18n(?:-[a-z-]+)?="([^"]+)"/g)) {
    assert.ok(key in en, `index.html asks for ${key}`);
  }
});

/**
 * The string literals of a JS source that a person would read, by this rule: a literal
 * (a '…' or "…" string, or the fixed parts of a `…` template) that holds a letter (\p{L}:
 * Latin, Chinese…) and stands
 *   - as a child argument of `h(tag, attrs, ...children)` (the third argument on), directly
 *     or as a branch of a ?: or ||/?? at that level;
 *   - as the value of a `title`, `aria-label`, `placeholder`, `alt` or `label` attribute;
 *   - assigned to `.textContent`, `.innerText`, `.title` or `.placeholder`;
 *   - as the first argument of `toast(...)` or `confirm(...)`/`alert(...)`.
 * A literal compared with === / !== (a phase or status name) is code, not text.
 * Everything else is allowed: CSS classes, ids, tag and event names, protocol field and
 * code names, catalogue keys (`t("…")`), data attributes and symbols without letters
 * ("–:––", " · ", "×"). Comments are skipped. Returns [{ text, line }].
 */
export function uiLiterals(src) {
  const found = [];
  const stack = []; // open brackets: { ch, call, arg }
  let i = 0;
  let line = 1;
  let prevWord = ""; // the identifier (or punctuation) before the current token
  let lastTokens = []; // the last few significant tokens
  const hasLetter = (s) => /\p{L}/u.test(s);
  const push = (tok) => {
    lastTokens.push(tok);
    if (lastTokens.length > 4) lastTokens.shift();
  };
  const inUiPlace = () => {
    const top = stack[stack.length - 1];
    const [a, b, c] = lastTokens.slice(-3);
    // `.textContent = "…"`
    if (c === "=" && ["textContent", "innerText", "title", "placeholder"].includes(b) && a === ".") return true;
    // `title: "…"`, `"aria-label": "…"`
    const keys = ["title", "aria-label", "placeholder", "alt", "label"];
    if (c === ":" && (keys.includes(b) || keys.some((k) => b === `"${k}"`))) return top?.ch === "{";
    if (!top || top.ch !== "(") return false;
    if (top.call === "h" && top.arg >= 2) return true;
    if (["toast", "confirm", "alert"].includes(top.call) && top.arg === 0) return true;
    return false;
  };
  const literal = (text, startLine) => {
    const compared = /(==|!=)=?$/.test(lastTokens.slice(-2).join(""));
    if (hasLetter(text) && !compared && inUiPlace()) found.push({ text, line: startLine });
    push(`"${text}"`);
  };
  while (i < src.length) {
    const ch = src[i];
    if (ch === "\n") { line++; i++; continue; }
    if (/\s/.test(ch)) { i++; continue; }
    if (src.startsWith("//", i)) { while (i < src.length && src[i] !== "\n") i++; continue; }
    if (src.startsWith("/*", i)) {
      const end = src.indexOf("*/", i + 2);
      line += (src.slice(i, end).match(/\n/g) ?? []).length;
      i = end + 2;
      continue;
    }
    if (ch === "\"" || ch === "'") {
      const start = line;
      let j = i + 1;
      let text = "";
      while (j < src.length && src[j] !== ch) {
        if (src[j] === "\\") { text += src[j + 1]; j += 2; continue; }
        text += src[j++];
      }
      i = j + 1;
      literal(text, start);
      continue;
    }
    if (ch === "`") {
      // The fixed parts of a template; the ${…} parts are skipped by brace counting (their
      // own literals are catalogue calls or code).
      const start = line;
      let j = i + 1;
      let text = "";
      while (j < src.length && src[j] !== "`") {
        if (src[j] === "\\") { j += 2; continue; }
        if (src[j] === "\n") line++;
        if (src[j] === "$" && src[j + 1] === "{") {
          let depth = 1;
          j += 2;
          while (j < src.length && depth) {
            if (src[j] === "{") depth++;
            else if (src[j] === "}") depth--;
            j++;
          }
          text += " ";
          continue;
        }
        text += src[j++];
      }
      i = j + 1;
      literal(text, start);
      continue;
    }
    if (/[A-Za-z_$]/.test(ch)) {
      let j = i;
      while (j < src.length && /[\w$]/.test(src[j])) j++;
      prevWord = src.slice(i, j);
      push(prevWord);
      i = j;
      continue;
    }
    if ("([{".includes(ch)) {
      const last = lastTokens[lastTokens.length - 1];
      stack.push({ ch, call: ch === "(" && /^[A-Za-z_$][\w$]*$/.test(last ?? "") ? last : null, arg: 0 });
      push(ch);
      i++;
      continue;
    }
    if (")]}".includes(ch)) {
      stack.pop();
      push(ch);
      i++;
      continue;
    }
    if (ch === ",") {
      if (stack.length) stack[stack.length - 1].arg++;
      push(",");
      i++;
      continue;
    }
    if (ch === "/" && !/[\w)\]"]/.test(lastTokens[lastTokens.length - 1]?.slice(-1) ?? "")) {
      // A regular expression literal: skip it.
      let j = i + 1;
      let inClass = false;
      while (j < src.length && (src[j] !== "/" || inClass)) {
        if (src[j] === "\\") j++;
        else if (src[j] === "[") inClass = true;
        else if (src[j] === "]") inClass = false;
        j++;
      }
      while (/[a-z]/.test(src[j + 1] ?? "")) j++;
      i = j + 1;
      push("/re/");
      continue;
    }
    // `"aria-label"` keys come as literals; keep them as tokens for the `:` rule.
    push(ch === "=" && src[i + 1] === "=" ? "==" : ch === "=" && src[i + 1] === ">" ? "=>" : ch);
    i += ch === "=" && (src[i + 1] === "=" || src[i + 1] === ">") ? 2 : 1;
  }
  return found;
}

test("the literal scanner finds what it should and nothing else", () => {
  const bad = `
    h("p", { class: "muted" }, "Hello", cond ? \`\${n} cards\` : "—");
    el.textContent = "Your move.";
    h("button", { title: "dealer", "aria-label": "Close", id: "btn-x" }, t("ok"));
    toast("Leave first");
  `;
  const texts = uiLiterals(bad).map((f) => f.text);
  assert.deepEqual(texts, ["Hello", "  cards", "Your move.", "dealer", "Close", "Leave first"]);
  const good = `
    // a comment with "English words"
    h("div", { class: "tl-panel", id: "tl-result", "data-x": "y z" }, t("tl.result.title", { points }), " · ", \`#\${id}\`);
    el.classList.toggle("selected", on);
    send({ type: "quick_play", options: { game: "xiangqi" } });
    const re = /Your move/;
    h("span", {}, p.type === "leading" ? t("a") : t("b"));
    h("span", { class: "time" }, "–:––");
  `;
  assert.deepEqual(uiLiterals(good), []);
});

test("no UI string in web/*.js or index.html outside the catalogues", () => {
  const problems = [];
  for (const file of pageModules()) {
    for (const { text, line } of uiLiterals(read(file))) problems.push(`${path.basename(file)}:${line} ${JSON.stringify(text)}`);
  }
  // index.html: no text node with a letter (outside <noscript>, which no script can fill,
  // and which says its sentence in both languages) and no readable attribute with one.
  const html = read(path.join(WEB, "index.html")).replace(/<noscript[\s\S]*?<\/noscript>/g, "").replace(/<!--[\s\S]*?-->/g, "");
  for (const m of html.matchAll(/>([^<]+)</g)) {
    if (/\p{L}/u.test(m[1])) problems.push(`index.html text ${JSON.stringify(m[1].trim())}`);
  }
  for (const m of html.matchAll(/\s(title|aria-label|placeholder|alt|content|label)="([^"]*)"/g)) {
    if (/\p{L}/u.test(m[2]) && !/width=device-width/.test(m[2])) problems.push(`index.html ${m[1]}="${m[2]}"`);
  }
  assert.deepEqual(problems, []);
});

test("the language: kept choice first, else zh* browsers get Chinese, others English", async () => {
  assert.equal(detectLanguage(null, ["zh-CN", "en"]), "zh-CN");
  assert.equal(detectLanguage(null, ["zh-TW"]), "zh-CN");
  assert.equal(detectLanguage(null, ["en-GB", "zh-CN"]), "en");
  assert.equal(detectLanguage("en", ["zh-CN"]), "en");
  assert.equal(detectLanguage("xx", ["zh"]), "zh-CN");
  assert.equal(detectLanguage(null, []), "en");
  assert.equal(translate("en", "tl.card_count", { count: 1 }), "1 card");
  assert.equal(translate("en", "tl.card_count", { count: 12 }), "12 cards");
  await loadLanguage("zh-CN");
  assert.equal(translate("zh-CN", "tl.card_count", { count: 12 }), "12 张");
});

test("refusals read in the player's language from their code and details", async () => {
  const follow = {
    code: "must_match_structure",
    message: "第十一条2: a pair of hearts is required: you hold 9h 9h",
    details: { reason: "must_match_structure", article: "第十一条2", card_type: "h", units: ["pair"], cards: ["9h", "9h"] },
  };
  await setLanguage("zh-CN");
  assert.equal(errorText(follow), "第十一条2：需要跟一对红桃，你有 9♥ 9♥");
  assert.equal(errorText({ code: "must_match_structure", details: { ...follow.details, units: ["pair_tractor:2", "pair"] } }),
    "第十一条2：需要跟一个2连对拖拉机和一对红桃，你有 9♥ 9♥");
  assert.equal(errorText({ code: "illegal_move", details: { reason: "kings_face", article: "4.1.2" } }),
    "第4.1.2条：帅将不能对脸（同一直线上中间无子）。");
  assert.equal(errorText({ code: "rate_limited", details: { limit: 20 } }), "消息太多：每秒最多 20 条，刚才那条已被丢弃。");
  assert.equal(errorText({ code: "seat_taken", message: "seat 1 is taken" }), "这个座位已经有人了。");
  assert.equal(errorText({ code: "no_such_code_yet" }), "服务器拒绝了该操作（no_such_code_yet）。");
  await setLanguage("en");
  assert.equal(errorText(follow), "第十一条2: You must follow with a pair (对子) of hearts: you hold 9♥ 9♥.");
  assert.equal(errorText({ code: "draw_offer_limit", details: { reason: "draw_offer_limit", article: "2.8", limit: 10, count: 3 } }),
    "Article 2.8: You may offer a draw once every 10 of your moves; make 3 more first.");
});
