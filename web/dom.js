// Small helpers for building the page without a framework.

import { t } from "./i18n.js";

/**
 * An element: `h("button", { class: "x", onclick: f }, "text", child)`. Attributes whose
 * name starts with "on" become listeners; `false`/`null` attributes are left out.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v == null) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "value") el.value = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) {
    if (child == null || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** Removes every child of `el`. */
export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
}

/** The mark of a seat one of the server's bots holds, in the lobby and at the table. */
export function botBadge() {
  return h("span", { class: "badge bot", title: t("seat.bot_title") }, t("seat.bot"));
}
