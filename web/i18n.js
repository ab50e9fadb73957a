// The page's languages: every string a person reads comes from one catalogue per
// language, web/i18n/zh-CN.js and web/i18n/en.js (plain objects, key → text). The language
// is the one kept in localStorage, else the browser's first (zh* → zh-CN, anything else →
// en); `setLanguage` switches it and every `onLanguageChange` listener redraws.
//
// Only the language in use is loaded (a first visit reads one catalogue, not both): the
// other one is imported when the person switches to it.
//
// A catalogue text may hold `{name}` placeholders, filled from `params` (numbers formatted
// for the language), or be an object of plural forms ({ one, other }) chosen by
// `params.count` with Intl.PluralRules.

/** How each language's catalogue is loaded, on first use. */
const LOADERS = {
  "zh-CN": () => import("./i18n/zh-CN.js"),
  en: () => import("./i18n/en.js"),
};
/** The catalogues loaded so far, by language. */
const CATALOGUES = {};
export const LANGUAGES = Object.keys(LOADERS);
const STORE_KEY = "qipai.lang";

/** Loads the catalogue of `lang` (once) so that `translate(lang, …)` can use it. */
export async function loadLanguage(lang) {
  CATALOGUES[lang] ??= (await LOADERS[lang]()).default;
}

/** The page's language from what was kept (`stored`) and the browser's list. */
export function detectLanguage(stored, languages) {
  if (stored && LOADERS[stored]) return stored;
  const first = (languages ?? []).find(Boolean) ?? "";
  return /^zh\b/i.test(first) ? "zh-CN" : "en";
}

function stored() {
  try {
    return globalThis.localStorage?.getItem(STORE_KEY) ?? null;
  } catch {
    return null;
  }
}

let current = detectLanguage(stored(), globalThis.navigator?.languages ?? [globalThis.navigator?.language]);
await loadLanguage(current);
const listeners = [];

/** The language in use: "zh-CN" or "en". */
export function language() {
  return current;
}

/** Switches the language (once its catalogue is loaded), keeps it, and tells every
 * listener (which redraw). */
export async function setLanguage(lang) {
  if (!LOADERS[lang]) return;
  await loadLanguage(lang);
  current = lang;
  try {
    globalThis.localStorage?.setItem(STORE_KEY, lang);
  } catch {
    // a private window may refuse; the switch still holds for this page
  }
  applyStatic();
  for (const fn of listeners) fn(lang);
}

/** Calls `fn(lang)` after every language switch. */
export function onLanguageChange(fn) {
  listeners.push(fn);
}

/** Whether the catalogue has `key` (for texts with an optional finer variant). */
export function has(key) {
  return CATALOGUES[current][key] != null;
}

/** The text of `key` in the current language with `params` filled in. */
export function t(key, params = {}) {
  return translate(current, key, params);
}

/** `t` for a given language (tests, and the language names). */
export function translate(lang, key, params = {}) {
  let text = CATALOGUES[lang]?.[key];
  if (text == null) return key;
  if (typeof text === "object") {
    const form = new Intl.PluralRules(lang).select(Number(params.count ?? 0));
    text = text[form] ?? text.other;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    const v = params[name];
    if (v == null) return whole;
    return typeof v === "number" ? formatNumber(v, lang) : String(v);
  });
}

/** A number as the language writes it. */
export function formatNumber(n, lang = current) {
  return new Intl.NumberFormat(lang).format(n);
}

/** A date and time as the language writes it (ms since the epoch, or a Date). */
export function formatDateTime(when, lang = current) {
  return new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date(when));
}

/** A duration in whole seconds or minutes, e.g. "30 秒", "5 min". */
export function formatDuration(ms, lang = current) {
  const minutes = ms >= 60000 && ms % 60000 === 0;
  return new Intl.NumberFormat(lang, {
    style: "unit", unit: minutes ? "minute" : "second", unitDisplay: "short",
  }).format(minutes ? ms / 60000 : Math.round(ms / 1000));
}

/** A list joined as the language joins it ("A、B和C", "A, B and C"). */
export function formatList(items, lang = current) {
  return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(items);
}

/**
 * Fills the static markup of index.html: `data-i18n` sets the text, `data-i18n-<attr>` an
 * attribute (title, aria-label, placeholder, content); `<html lang>` follows.
 */
export function applyStatic(root = globalThis.document) {
  if (!root?.querySelectorAll) return;
  root.documentElement.lang = current;
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const attr of ["title", "aria-label", "placeholder", "content"]) {
    for (const el of root.querySelectorAll(`[data-i18n-${attr}]`)) {
      el.setAttribute(attr, t(el.getAttribute(`data-i18n-${attr}`)));
    }
  }
}
