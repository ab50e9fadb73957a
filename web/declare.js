// Declaring a throw (第十一条1): when the server refuses an undeclared throw with
// `declare_structure`, it lists the throw's valid splits; this panel shows each split as
// groups of cards and the player picks one, which the caller sends back as `declared`. The
// server decides which splits are valid: the page only shows what it was sent.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { cardLabel } from "./cards.js";

/**
 * Shows `splits` (each a list of units, each a list of cards) in `root` and resolves with
 * the split the player picks, or `null` when they cancel. `cardRow(cards)` draws one unit.
 */
export function chooseSplit(root, splits, cardRow) {
  root.querySelector(".tl-declare")?.remove();
  return new Promise((resolve) => {
    const done = (choice) => {
      panel.remove();
      resolve(choice);
    };
    const options = splits.map((split, i) =>
      h("button", { class: "tl-split", "data-split": i, onclick: () => done(split),
        "aria-label": t("tl.declare_option", { n: i + 1, units: split.map((u) => u.map(cardLabel).join(" ")).join(" | ") }) },
        ...split.map((unit) => h("span", { class: "tl-unit" }, cardRow(unit)))));
    const panel = h("div", { class: "tl-declare panel", role: "dialog", "aria-modal": "false", "aria-labelledby": "tl-declare-title" },
      h("p", { id: "tl-declare-title" }, t("tl.declare_prompt")),
      ...options,
      h("button", { class: "tl-split-cancel", onclick: () => done(null) }, t("tl.cancel")));
    root.append(panel);
    panel.querySelector("button")?.focus();
  });
}
