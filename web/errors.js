// The server's refusals in the player's language. Every error carries a stable
// `code` and, for the refusals that need them, `details` (PROTOCOL.md, "Error details"):
// the rules' article, a finer `reason`, the card type, the unit kinds, the cards, counts
// and limits. The text comes from the catalogue — `err.<code>.<reason>` when the catalogue
// has that finer entry, else `err.<code>` — never from the server's English `message`,
// which stays for developers and logs.

import { t, has, formatList } from "./i18n.js";
import { cardLabel } from "./cards.js";

/** A card type (`trump` or a suit letter) as players say it: 主牌, 红桃… */
export function typeName(type) {
  return t(`type.${type}`);
}

/** Cards as people write them, e.g. "9♥ 9♥". */
export function cardsText(cards) {
  return cards.map(cardLabel).join(" ");
}

/**
 * Unit kinds (`pair`, `pair_tractor:2`, …) as players say them, runs of one kind counted:
 * ["pair_tractor:2", "pair"] → "一个两连对拖和一对" / "a 2-pair tractor (拖拉机) and a pair".
 */
export function unitsText(units) {
  const groups = [];
  for (const unit of units) {
    const last = groups[groups.length - 1];
    if (last && last.unit === unit) last.count += 1;
    else groups.push({ unit, count: 1 });
  }
  return formatList(groups.map(({ unit, count }) => {
    const [kind, length] = unit.split(":");
    return t(`unit.${kind}`, { count, length: Number(length ?? 1), n: small(count) });
  }));
}

/** A small count as a word where the language has one (一, 两, 三…), else the digits. */
function small(n) {
  const words = t("num.small").split(",");
  return n < words.length ? words[n] : String(n);
}

/** The player's sentence for a refusal: `{ code, message, details }` (a ServerError too). */
export function errorText(err) {
  const d = err.details ?? {};
  const key = d.reason && has(`err.${err.code}.${d.reason}`) ? `err.${err.code}.${d.reason}` : `err.${err.code}`;
  if (!has(key)) return t("err.unknown", { code: err.code });
  const text = t(key, {
    type: d.card_type ? typeName(d.card_type) : "",
    units: d.units ? unitsText(d.units) : "",
    cards: d.cards ? cardsText(d.cards) : "",
    required: d.required,
    count: d.count,
    limit: d.limit,
    seat: d.seat != null ? d.seat + 1 : null,
    side: d.side ? t(`side.${d.side}`) : "",
    squares: (d.squares ?? []).join("–"),
    line: d.line,
    field: d.field ? t(`form.field.${d.field}`) : "",
    value: d.value ?? "",
  });
  // A refused line of a file (the registration form) says which, when its text does not.
  if (d.line != null && err.code !== "bad_entry_form") return t("err.at_line", { line: d.line, text });
  return d.article ? t("err.with_article", { article: articleText(d.article), text }) : text;
}

/** An article as the rules pages number it: 第十一条2 as it is, xiangqi's "2.2" as 第2.2条. */
export function articleText(article) {
  return /^\d/.test(article) ? t("article.xiangqi", { article }) : article;
}
