// The organiser's papers, one A4 page each (competition-print.html, printed from the
// browser): `?id=C&paper=pairings&round=N` a round's pairing sheet (table, Red/Black or the
// seats of each pair, names and departments, a column to write the result in);
// `paper=slips` the same round's result slips, one per table, to cut out and sign;
// `paper=awards` the award places with the award names in Chinese (一等奖 …), marked
// provisional until the last round is recorded. Read from the public API (PROTOCOL.md
// §17.2): nothing here needs the director, and no contact or entry code is ever on it.

import { h, clear } from "./dom.js";
import { t, formatNumber, formatDateTime, language } from "./i18n.js";
import { api, playersText } from "./competition.js";
import { errorText } from "./errors.js";

const PAPERS = ["pairings", "slips", "awards"];

/** What the address asks for: { id, paper, round } or null. */
export function paperRoute(search) {
  const q = new URLSearchParams(search);
  const id = Number(q.get("id"));
  const paper = q.get("paper");
  const round = Number(q.get("round") ?? 0);
  if (!Number.isInteger(id) || id < 1 || !PAPERS.includes(paper)) return null;
  if (paper !== "awards" && !(Number.isInteger(round) && round >= 1)) return null;
  return { id, paper, round };
}

/** The words for each side of a table: Red/Black, or the seats of each pair. */
function sides(event) {
  return [t(`print.side.${event}.first`), t(`print.side.${event}.second`)];
}

/** An entry's names with its department under them. */
function entryCell(entry) {
  return [h("div", {}, playersText(entry.players)), h("div", { class: "dept" }, entry.team)];
}

/** A round's pairing sheet. */
function pairings(summary, round) {
  const [first, second] = sides(summary.event);
  const rows = round.tables.map((p) => h("tr", {},
    h("td", { class: "paper-table-no" }, formatNumber(p.table)),
    h("td", {}, entryCell(p.first)),
    h("td", {}, entryCell(p.second)),
    h("td", { class: "paper-write" }, p.result ? t(`print.result.${p.result}`, { first, second }) : "")));
  return [
    h("h1", {}, t("print.pairings_title", { name: summary.name, n: round.round })),
    h("p", { class: "paper-sub" }, t(`comp.event.${summary.event}`)),
    h("table", { class: "paper-table", id: "pairing-sheet" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("print.col.table")),
        h("th", { scope: "col" }, first),
        h("th", { scope: "col" }, second),
        h("th", { scope: "col" }, t("print.col.result")))),
      h("tbody", {}, rows)),
    round.bye ? h("p", { id: "pairing-bye" }, t("comp.bye", { players: playersText(round.bye.players), team: round.bye.team })) : null,
  ];
}

/** One result slip per table of a round: the sides, the result to tick, three signatures. */
function slips(summary, round) {
  const [first, second] = sides(summary.event);
  const choices = [
    t("print.wins", { side: first }), t("print.draw"), t("print.wins", { side: second }),
    t("print.forfeits", { side: first }), t("print.forfeits", { side: second }),
  ];
  return [
    h("h1", {}, t("print.slips_title", { name: summary.name, n: round.round })),
    round.tables.map((p) => h("section", { class: "slip", "data-table": p.table },
      h("h2", {}, t("table.titled", { competition: summary.name, round: round.round, table: p.table })),
      h("div", { class: "slip-sides" },
        h("div", {}, h("strong", {}, first), entryCell(p.first)),
        h("div", {}, h("strong", {}, second), entryCell(p.second))),
      summary.event === "tuolaji" ? h("p", {}, t("print.levels", { first, second })) : null,
      h("div", { class: "slip-choices" }, choices.map((c) => h("span", { class: "box" }, c))),
      h("p", {}, t("print.note_line")),
      h("div", { class: "slip-sign" },
        h("span", {}, t("print.sign", { side: first })),
        h("span", {}, t("print.sign", { side: second })),
        h("span", {}, t("print.sign_arbiter"))))),
  ];
}

/** An award's name: in the page's language, and in Chinese beside it when that differs. */
function awardName(key, zh) {
  const name = t(`comp.award.${key}`);
  return zh && zh !== name ? `${name} ${zh}` : name;
}

/** Places grouped under their award, in award order. */
function byAward(rows, line) {
  return ["first", "second", "third"].map((key) => {
    const mine = rows.filter((r) => r.award === key);
    if (!mine.length) return null;
    return [h("h3", { "data-award": key }, awardName(key, mine[0].award_zh)), h("ol", {}, mine.map((r) => h("li", {}, line(r))))];
  }).filter(Boolean).flat();
}

/** The award places of a competition and of the teams. */
function awards(summary, list) {
  const provisional = list.provisional || list.teams_provisional;
  return [
    h("h1", {}, t("print.awards_title", { name: summary.name })),
    h("p", { class: "paper-sub" }, t(`comp.event.${summary.event}`)),
    provisional ? h("p", { class: "paper-note", id: "awards-provisional" }, t("print.provisional")) : null,
    h("section", { class: "awards", id: "awards-entries" },
      h("h2", {}, t("print.awards_entries")),
      list.entries.length
        ? byAward(list.entries, (e) => `${playersText(e.players)}（${e.team}）${t("print.points", { points: e.points })}`)
        : h("p", {}, t("comp.no_awards"))),
    h("section", { class: "awards", id: "awards-teams" },
      h("h2", {}, t("print.awards_teams")),
      list.teams.length
        ? byAward(list.teams, (r) => `${r.team} ${t("print.total", { total: r.total })}`)
        : h("p", {}, t("comp.no_awards"))),
  ];
}

/** Draws the paper the address asks for. */
async function show(root) {
  clear(root);
  const route = paperRoute(location.search);
  if (!route) {
    root.append(h("p", { role: "alert" }, t("print.bad_address")));
    return;
  }
  const base = `/api/competitions/${route.id}`;
  let body;
  try {
    const summary = await api(base);
    if (route.paper === "awards") body = awards(summary, await api(`${base}/awards`));
    else {
      const round = await api(`${base}/rounds/${route.round}`);
      body = route.paper === "pairings" ? pairings(summary, round) : slips(summary, round);
    }
  } catch (err) {
    root.append(h("p", { role: "alert" }, errorText(err)));
    return;
  }
  root.append(
    h("p", { class: "paper-actions" }, h("button", { type: "button", onclick: () => window.print() }, t("comp.print"))),
    ...body.flat(2).filter((el) => el != null),
    h("p", { class: "dept" }, t("print.printed", { when: formatDateTime(Date.now()) })));
  document.title = root.querySelector("h1")?.textContent ?? document.title;
  document.documentElement.lang = language();
  root.dataset.ready = "true";
}

if (typeof document !== "undefined" && document.getElementById("paper")) show(document.getElementById("paper"));
