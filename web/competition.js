// Competitions: the public page of every competition (`#/competitions`, and
// `#/competitions/{id}`: entries, pairings by round with each table's live status, standings
// with every tiebreak, team totals, awards, corrections with their reasons, CSV exports,
// printable pairings) and the director's page (`#/director`: sign in, create, import the
// registration form, pair the next round, record and correct results). Everything is read
// and done over the HTTP API of PROTOCOL.md §17; the public page follows its competition
// live with `watch_competition` on the page's own WebSocket (§17.4), or by the long poll
// `GET /api/competitions/changes` when the page has no connection (no name chosen yet).
// The director's password only ever sits in the form; the session is the API's HttpOnly
// cookie, which the page never reads.

import { h, clear } from "./dom.js";
import { t, formatDateTime, formatNumber } from "./i18n.js";
import { errorText } from "./errors.js";

/** The result names of the API (from the first-named entry's side). */
export const RESULTS = ["first_wins", "draw", "second_wins", "first_forfeits", "second_forfeits", "both_forfeit"];

/** `#/competitions`, `#/competitions/{id}` or `#/director`: { page, id } or null. */
export function competitionRoute(hash) {
  if (hash === "#/director") return { page: "director", id: null };
  const m = hash.match(/^#\/competitions(?:\/(\d+))?$/);
  return m ? { page: "competition", id: m[1] ?? null } : null;
}

/** An entry's players as one line: "张一 / 张二". */
export function playersText(players) {
  return (players ?? []).map((p) => (typeof p === "string" ? p : p.name)).join(" / ");
}

/** A table's result in words, naming the side: "张一 / 张二 won". */
export function resultText(result, first, second) {
  if (!result) return "–";
  return t(`comp.result.${result}`, { first: playersText(first?.players), second: playersText(second?.players) });
}

/** A signed whole number as the standings show 级差: +2, −3, 0. */
export function signed(n) {
  if (n > 0) return `+${formatNumber(n)}`;
  if (n < 0) return `−${formatNumber(-n)}`;
  return formatNumber(0);
}

/** A refusal from the API (`{error: {code, message}}`) as an Error with its code. */
class ApiError extends Error {
  constructor(code, message, details = null) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

/** A JSON request; rejects with an ApiError (`offline` when the server is not reached). */
export async function api(path, { method = "GET", body = null, type = "application/json" } = {}) {
  let res;
  try {
    res = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body == null ? {} : { "Content-Type": type },
      body: body == null ? undefined : (typeof body === "string" ? body : JSON.stringify(body)),
    });
  } catch {
    throw new ApiError("offline", "the server cannot be reached");
  }
  const v = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(v?.error?.code ?? "unknown", v?.error?.message ?? `HTTP ${res.status}`, v?.error?.details ?? null);
  return v;
}

/**
 * A registration form file as text: UTF-8 (a byte-order mark or none), else GBK/GB18030,
 * as a Chinese Excel saves CSV (the server reads both too, PROTOCOL.md §17.1).
 */
export function formText(bytes) {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("gb18030").decode(bytes);
  }
}

/** A table of rows: `cols` are [key of the heading, cell(row)]. */
function grid(id, cols, rows, caption) {
  return h("table", { class: "comp-table", id },
    caption ? h("caption", {}, caption) : null,
    h("thead", {}, h("tr", {}, cols.map(([key]) => h("th", { scope: "col" }, t(key))))),
    h("tbody", {}, rows.map((r) => h("tr", {}, cols.map(([, cell]) => h("td", {}, cell(r)))))));
}

/** A section of the page: its heading, then `body`. */
const section = (id, title, ...body) =>
  h("section", { id: `comp-${id}`, "aria-labelledby": `h-${id}` }, h("h3", { id: `h-${id}` }, title), ...body);

/** A CSV download (not printed). */
const csvLink = (href, file, text) => h("p", { class: "no-print" }, h("a", { href, download: file }, text));

/** A printable paper of the organiser's (competition-print.html), in a new tab; not printed. */
const paperLink = (id, paper, round, key) => h("p", { class: "no-print" },
  h("a", { href: `competition-print.html?id=${id}&paper=${paper}${round ? `&round=${round}` : ""}`, target: "_blank",
    rel: "noopener", "data-paper": paper }, t(key, { n: round ?? 0 })));

/** The tiebreak columns after the points (entries) or the total (teams): 对手分, 级差, lots. */
const TIEBREAKS = [
  ["comp.col.opponents_points", (r) => formatNumber(r.opponents_points)],
  ["comp.col.level_diff", (r) => signed(r.level_diff)],
  ["comp.col.lot", (r) => formatNumber(r.lot)],
];

const award = (a) => (a ? h("span", { class: `badge award-${a}` }, t(`comp.award.${a}`)) : "");

/** The public page of the competitions. */
export class CompetitionPage {
  /**
   * @param root the element to draw in
   * @param ctx { conn() (the page's Connection, or null), spectate(room), toast(text) }
   */
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    this.id = null;
    this.data = null;
    this.watching = null; // the id watched over the WebSocket
    this.polling = false;
    this.reloading = null;
    this.again = false;
    this.gone = false;
  }

  /** Draws again in the current language. */
  build() {
    if (this.id == null) this.showList();
    else this.render();
  }

  destroy() {
    this.gone = true;
    this.unwatch();
    clear(this.root);
  }

  async showList() {
    this.unwatch();
    this.id = null;
    clear(this.root);
    const body = h("div", { id: "competition-list" }, h("p", { class: "muted" }, t("lobby.loading")));
    this.root.append(h("div", { class: "records-head" },
      h("h2", {}, t("comp.list_title")),
      h("a", { href: "#/director", id: "link-director", class: "no-print" }, t("comp.director_link"))), body);
    let list = [];
    try {
      list = (await api("/api/competitions")).competitions;
    } catch (err) {
      clear(body);
      body.append(h("p", { class: "muted" }, errorText(err)));
      return;
    }
    clear(body);
    if (!list.length) body.append(h("p", { class: "muted" }, t("comp.none")));
    else {
      body.append(h("ul", { class: "comp-list" }, list.map((c) => h("li", {},
        h("a", { href: `#/competitions/${c.id}` }, c.name), " ", h("span", { class: "muted" }, t(`comp.event.${c.event}`))))));
    }
  }

  async show(id) {
    this.id = Number(id);
    this.data = null;
    this.gone = false;
    clear(this.root);
    this.root.append(h("p", { class: "muted" }, t("lobby.loading")));
    await this.watch();
    await this.reload();
  }

  /** Watches the competition over the WebSocket; without one, long-polls. */
  async watch() {
    const conn = this.ctx.conn();
    if (conn && conn.state === "online") {
      try {
        await conn.request({ type: "watch_competition", competition_id: this.id });
        this.watching = this.id;
        return;
      } catch {
        // not connected after all, or the server refused: fall back to the long poll
      }
    }
    this.watching = null;
    this.poll();
  }

  unwatch() {
    const conn = this.ctx.conn();
    if (this.watching != null && conn?.state === "online") conn.request({ type: "unwatch_competition" }).catch(() => {});
    this.watching = null;
  }

  /** The connection came back (a new WebSocket): watch again, and catch up. */
  online() {
    if (this.id == null || this.gone) return;
    this.watch().then(() => this.reload());
  }

  /** `competition_changed` from the server. */
  changed(msg) {
    if (msg.competition_id === this.id) this.reload();
  }

  async poll() {
    if (this.polling) return;
    this.polling = true;
    let version = null;
    while (!this.gone && this.id != null && this.watching == null) {
      try {
        const q = version == null ? "" : `?after=${version}`;
        const v = (await api(`/api/competitions/changes${q}`)).version;
        if (version != null && v !== version) await this.reload();
        version = v;
      } catch {
        await new Promise((r) => setTimeout(r, 2000));
      }
    }
    this.polling = false;
  }

  /** Loads everything shown; changes during a load load once more after it. */
  async reload() {
    if (this.reloading) {
      this.again = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      do {
        this.again = false;
        await this.load();
      } while (this.again && !this.gone);
    })();
    try {
      await this.reloading;
    } finally {
      this.reloading = null;
    }
  }

  async load() {
    const id = this.id;
    const base = `/api/competitions/${id}`;
    try {
      const summary = await api(base);
      const n = summary.rounds_paired;
      const [entries, standings, teams, awards, ...rounds] = await Promise.all([
        api(`${base}/entries`), api(`${base}/standings`), api(`${base}/teams`), api(`${base}/awards`),
        ...Array.from({ length: n }, (_, i) => api(`${base}/rounds/${i + 1}`)),
      ]);
      if (id !== this.id || this.gone) return;
      this.data = { summary, entries: entries.entries, standings: standings.standings, teams: teams.teams, awards, rounds };
      this.error = null;
    } catch (err) {
      this.error = err;
    }
    this.render();
  }

  render() {
    clear(this.root);
    if (!this.data) {
      this.root.append(h("div", { class: "records-head" }, h("h2", {}, t("comp.title"))),
        h("p", { class: "muted", role: "alert" }, this.error ? errorText(this.error) : t("lobby.loading")));
      return;
    }
    const { summary: s, entries, standings, teams, awards, rounds } = this.data;
    const base = `/api/competitions/${s.id}`;
    this.root.append(
      h("div", { class: "records-head" },
        h("h2", { id: "competition-title" }, s.name),
        h("span", { class: "muted" }, t(`comp.event.${s.event}`), " · ",
          t("comp.rounds_of", { n: s.rounds_paired, total: s.rounds })),
        h("a", { href: "#/competitions", class: "no-print" }, t("comp.all")),
        h("button", { type: "button", id: "btn-print", class: "no-print", onclick: () => window.print() }, t("comp.print"))),
      h("p", { class: "muted comp-live no-print", id: "competition-live", "aria-live": "polite" },
        this.watching != null ? t("comp.live") : t("comp.live_poll")),
      this.roundsSection(rounds, base, s.event),
      section("standings", t("comp.standings"),
        standings.length ? grid("standings-table", [
          ["comp.col.rank", (r) => formatNumber(r.rank)],
          ["comp.col.team", (r) => r.team],
          ["comp.col.players", (r) => playersText(r.players)],
          ["comp.col.points", (r) => formatNumber(r.points)],
          ...TIEBREAKS,
          ["comp.col.played", (r) => formatNumber(r.played)],
          ["comp.col.byes", (r) => formatNumber(r.byes)],
          ["comp.col.award", (r) => award(r.award)],
        ], standings) : h("p", { class: "muted" }, t("comp.no_standings")),
        csvLink(`${base}/standings.csv`, `standings-${s.id}.csv`, t("comp.csv_standings"))),
      section("teams", t("comp.teams"),
        teams.length ? grid("teams-table", [
          ["comp.col.rank", (r) => formatNumber(r.rank)],
          ["comp.col.team", (r) => r.team],
          ["comp.col.total", (r) => formatNumber(r.total)],
          ...TIEBREAKS,
          ["comp.col.counted", (r) => r.counted.map((c) => `${t(`comp.event.${c.event}`)}: ${playersText(c.players)}`).join("; ")],
          ["comp.col.award", (r) => award(r.award)],
        ], teams) : h("p", { class: "muted" }, t("comp.no_teams")),
        csvLink(`${base}/teams.csv`, `teams-${s.id}.csv`, t("comp.csv_teams"))),
      section("awards", t("comp.awards"),
        awards.entries.length || awards.teams.length ? h("ul", { class: "comp-list" },
          awards.entries.map((e) => h("li", {}, award(e.award), " ", playersText(e.players), ` (${e.team})`)),
          awards.teams.map((e) => h("li", {}, award(e.award), " ", t("comp.team_award", { team: e.team })))) : h("p", { class: "muted" }, t("comp.no_awards")),
        csvLink(`${base}/awards.csv`, `awards-${s.id}.csv`, t("comp.csv_awards")),
        paperLink(s.id, "awards", null, "comp.print_awards")),
      section("corrections", t("comp.corrections"),
        s.corrections.length ? grid("corrections-table", [
          ["comp.col.round", (c) => formatNumber(c.round)],
          ["comp.col.table", (c) => formatNumber(c.table)],
          ["comp.col.change", (c) => t("comp.change", { before: c.before ? t(`comp.result_short.${c.before}`) : "–", after: t(`comp.result_short.${c.after}`) })],
          ["comp.col.reason", (c) => c.reason],
          ["comp.col.by", (c) => t("comp.by", { author: c.author, when: formatDateTime(c.at_ms) })],
        ], s.corrections) : h("p", { class: "muted" }, t("comp.no_corrections"))),
      section("entries", t("comp.entries", { count: entries.length }),
        entries.length ? grid("entries-table", [
          ["comp.col.team", (e) => e.team],
          ...(s.event === "tuolaji" ? [["comp.col.pair", (e) => (e.pair_number == null ? "–" : formatNumber(e.pair_number))]] : []),
          ["comp.col.players", (e) => playersText(e.players)],
        ], entries) : h("p", { class: "muted" }, t("comp.no_entries"))),
    );
  }

  roundsSection(rounds, base, event) {
    return section("rounds", t("comp.pairings"),
      rounds.length ? [...rounds].reverse().map((r) => h("div", { class: "comp-round", id: `round-${r.round}` },
        grid(`round-${r.round}-table`, [
          ["comp.col.table", (p) => formatNumber(p.table)],
          [`comp.col.first.${event}`, (p) => `${playersText(p.first.players)} (${p.first.team})`],
          [`comp.col.second.${event}`, (p) => `${playersText(p.second.players)} (${p.second.team})`],
          ["comp.col.status", (p) => h("span", { class: `status status-${p.status}`, "data-status": p.status }, t(`comp.status.${p.status}`))],
          ["comp.col.result", (p) => h("span", { class: "comp-result" }, resultText(p.result, p.first, p.second),
            p.note ? h("span", { class: "muted" }, ` — ${p.note}`) : null)],
          ["comp.col.watch", (p) => (p.room != null && p.status !== "finished"
            ? h("button", { type: "button", class: "small no-print", "data-room": p.room,
              onclick: () => this.ctx.spectate(p.room) }, t("comp.spectate"))
            : "")],
        ], r.tables, t("comp.round", { n: r.round })),
        r.bye ? h("p", { class: "comp-bye" }, t("comp.bye", { players: playersText(r.bye.players), team: r.bye.team })) : null,
        csvLink(`${base}/rounds/${r.round}.csv`, `round-${r.round}.csv`, t("comp.csv_round", { n: r.round })),
        paperLink(this.id, "pairings", r.round, "comp.print_pairings"),
        paperLink(this.id, "slips", r.round, "comp.print_slips")))
        : h("p", { class: "muted" }, t("comp.no_rounds")));
  }
}

/** The director's page. */
export class DirectorPage {
  /** @param ctx { toast(text, kind) } */
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    this.signedIn = false;
    this.list = [];
    this.selected = null;
    this.message = null; // { kind, text, detail }
  }

  build() {
    this.render();
  }

  destroy() {
    clear(this.root);
  }

  /** Whether the session cookie is still good (`GET /api/director/session`). */
  async show() {
    try {
      this.signedIn = (await api("/api/director/session")).director != null;
    } catch {
      this.signedIn = false;
    }
    await this.refresh();
  }

  async refresh() {
    try {
      this.list = (await api("/api/competitions")).competitions;
    } catch {
      this.list = [];
    }
    if (this.selected == null && this.list.length) this.selected = this.list[this.list.length - 1].id;
    this.render();
  }

  /** Says how a request went; refusals in the person's language with the server's words. */
  say(kind, text, detail = null) {
    this.message = { kind, text, detail };
    this.renderMessage();
  }

  fail(err) {
    this.say("error", errorText(err), err.message);
    if (err.code === "director_required") {
      this.signedIn = false;
      this.render();
    }
  }

  renderMessage() {
    const box = this.root.querySelector("#director-message");
    if (!box) return;
    clear(box);
    const m = this.message;
    if (!m) return;
    box.className = `director-message ${m.kind}`;
    box.append(h("p", {}, m.text));
    if (m.detail) box.append(h("p", { class: "muted" }, t("comp.server_says", { detail: m.detail })));
  }

  render() {
    clear(this.root);
    this.root.append(h("div", { class: "records-head" },
      h("h2", { id: "director-title" }, t("dir.title")),
      h("a", { href: "#/competitions" }, t("comp.all")),
      this.signedIn ? h("button", { type: "button", id: "btn-logout", onclick: () => this.logout() }, t("dir.logout")) : null),
    h("div", { id: "director-message", role: "alert" }));
    if (!this.signedIn) this.root.append(this.loginForm());
    else this.root.append(this.createForm(), this.manage());
    this.renderMessage();
  }

  loginForm() {
    const form = h("form", { id: "director-login", class: "panel director-form" },
      h("h3", {}, t("dir.login")),
      h("label", { for: "dir-name" }, t("dir.name")),
      h("input", { id: "dir-name", name: "name", autocomplete: "username", value: "director", required: true }),
      h("label", { for: "dir-password" }, t("dir.password")),
      h("input", { id: "dir-password", name: "password", type: "password", autocomplete: "current-password", required: true }),
      h("button", { class: "primary", type: "submit", id: "btn-login" }, t("dir.sign_in")));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const password = form.elements.password;
      const body = { name: form.elements.name.value, password: password.value };
      password.value = ""; // the password lives in the form only until it is sent
      try {
        await api("/api/director/login", { method: "POST", body });
        this.signedIn = true;
        this.message = { kind: "ok", text: t("dir.signed_in") };
        await this.refresh();
      } catch (err) {
        this.fail(err);
      }
    });
    return form;
  }

  async logout() {
    await api("/api/director/logout", { method: "POST" }).catch(() => {});
    this.signedIn = false;
    this.message = { kind: "ok", text: t("dir.signed_out") };
    this.render();
  }

  createForm() {
    const form = h("form", { id: "director-create", class: "panel director-form" },
      h("h3", {}, t("dir.create")),
      h("label", { for: "new-name" }, t("dir.comp_name")),
      h("input", { id: "new-name", name: "name", required: true, maxlength: 100 }),
      h("label", { for: "new-event" }, t("dir.event")),
      h("select", { id: "new-event", name: "event" },
        h("option", { value: "tuolaji" }, t("comp.event.tuolaji")), h("option", { value: "xiangqi" }, t("comp.event.xiangqi"))),
      h("label", { for: "new-rounds" }, t("dir.rounds")),
      h("input", { id: "new-rounds", name: "rounds", type: "number", min: 1, max: 20, value: 4 }),
      h("label", { for: "new-partner" }, t("dir.partner")),
      h("select", { id: "new-partner", name: "partner" }, h("option", { value: "" }, t("dir.no_partner")),
        this.list.map((c) => h("option", { value: c.id }, `${c.name} (${t(`comp.event.${c.event}`)})`))),
      h("label", { for: "new-seed" }, t("dir.seed")),
      h("input", { id: "new-seed", name: "seed", inputmode: "numeric", pattern: "[0-9]*" }),
      h("button", { class: "primary", type: "submit", id: "btn-create" }, t("dir.create_button")));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const f = form.elements;
      const body = { name: f.name.value, event: f.event.value, rounds: Number(f.rounds.value) };
      if (f.partner.value) body.partner = Number(f.partner.value);
      if (f.seed.value) body.seed = Number(f.seed.value);
      try {
        const c = await api("/api/director/competitions", { method: "POST", body });
        this.selected = c.id;
        this.message = { kind: "ok", text: t("dir.created", { name: c.name, id: c.id }) };
        await this.refresh();
      } catch (err) {
        this.fail(err);
      }
    });
    return form;
  }

  /** A new code for player `player` of entry `entry`: the old one stops working at once. */
  async reissue(id, entry, player, codeList) {
    try {
      const v = await api(`/api/director/competitions/${id}/entries/${entry}/players/${player}/code`, { method: "POST" });
      this.issued = { competition: id, codes: [v.code], csv: v.codes_csv };
      this.say("ok", t("dir.reissued", { name: v.code.name }));
      this.showCodes(codeList);
    } catch (err) {
      this.fail(err);
    }
  }

  /**
   * The codes just issued, the only time they are seen: per player the code, the entry link
   * (`<site>/?entry=CODE`) and its QR code (drawn by the server), to print; and the CSV.
   */
  showCodes(box) {
    clear(box);
    const issued = this.issued;
    if (!issued?.codes?.length) return;
    const link = (code) => `${location.origin}/?entry=${encodeURIComponent(code)}`;
    const csvUrl = URL.createObjectURL(new Blob([issued.csv], { type: "text/csv" }));
    box.append(
      h("p", { class: "muted", id: "entry-codes-once" }, t("dir.codes_once")),
      h("p", {}, h("a", { href: csvUrl, download: "entry-codes.csv", id: "link-codes-csv" }, t("dir.codes_csv")), " ",
        h("button", { type: "button", class: "small", id: "btn-print-codes", onclick: () => window.print() }, t("dir.codes_print"))),
      h("table", { class: "comp-table entry-codes", id: "entry-codes" },
        h("thead", {}, h("tr", {}, h("th", {}, t("comp.col.team")), h("th", {}, t("dir.codes_player")), h("th", {}, t("dir.codes")),
          h("th", {}, t("dir.codes_link")), h("th", {}, t("dir.codes_qr")))),
        h("tbody", {}, issued.codes.map((c) => h("tr", {},
          h("td", {}, c.team), h("td", {}, c.name), h("td", { class: "entry-code" }, c.code),
          h("td", { class: "entry-link" }, h("a", { href: link(c.code) }, link(c.code))),
          h("td", {}, h("img", { class: "entry-qr", width: 120, height: 120, alt: t("dir.codes_qr_alt", { name: c.name }),
            src: `/api/director/qr.svg?text=${encodeURIComponent(link(c.code))}` })))))));
  }

  manage() {
    if (!this.list.length) return h("p", { class: "muted" }, t("comp.none"));
    const id = this.selected;
    const pick = h("select", { id: "dir-competition", onchange: (e) => { this.selected = Number(e.target.value); this.render(); } },
      this.list.map((c) => h("option", { value: c.id, selected: c.id === id }, `${c.name} (#${c.id})`)));
    const path = (what) => `/api/director/competitions/${id}/${what}`;

    const csv = h("textarea", { id: "import-csv", rows: 6, placeholder: t("dir.import_placeholder") });
    const file = h("input", { id: "import-file", type: "file", accept: ".csv,text/csv,text/plain" });
    file.addEventListener("change", async () => {
      if (file.files[0]) csv.value = formText(await file.files[0].arrayBuffer());
    });
    const importForm = h("form", { id: "director-import", class: "panel director-form" },
      h("h3", {}, t("dir.import")),
      h("p", { class: "muted" }, t("dir.import_help")),
      h("label", { for: "import-file" }, t("dir.import_file")), file,
      h("label", { for: "import-csv" }, t("dir.import_paste")), csv,
      h("button", { type: "submit", id: "btn-import" }, t("dir.import_button")));
    importForm.addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        const v = await api(path("entries"), { method: "POST", body: csv.value, type: "text/csv" });
        this.issued = { competition: id, codes: v.codes, csv: v.codes_csv };
        this.say("ok", t("dir.imported", { count: v.imported, partner: v.imported_into_partner }));
        this.showCodes(codeList);
      } catch (err) {
        this.fail(err);
      }
    });

    // A round is published (pairings shown, tables open, players may sit), then started:
    // at once, at a time set now, or later with "Start round" (tournaments.md "The day
    // itself"); lateness and the round clock count from the start.
    const when = h("select", { id: "round-when" },
      h("option", { value: "now" }, t("dir.start_now")),
      h("option", { value: "at" }, t("dir.start_at")),
      h("option", { value: "later" }, t("dir.start_later")));
    const at = h("input", { id: "round-start-at", type: "datetime-local" });
    const roundNo = h("input", { id: "round-number", type: "number", min: 1, value: 1 });
    const entryNo = h("input", { id: "withdraw-entry", type: "number", min: 0, value: 0 });
    const act = async (what, request, done) => {
      try {
        const v = await api(path(what), { method: "POST", ...request });
        this.say("ok", done(v));
      } catch (err) {
        this.fail(err);
      }
    };
    const round = h("div", { class: "panel director-form", id: "director-round" },
      h("h3", {}, t("dir.round")),
      h("label", { for: "round-when" }, t("dir.start_when")), when,
      h("label", { for: "round-start-at" }, t("dir.start_time")), at,
      h("button", { type: "button", class: "primary", id: "btn-start-round", onclick: () => {
        const body = {};
        if (when.value === "now") body.start = true;
        if (when.value === "at" && at.value) body.start_at_ms = new Date(at.value).getTime();
        act("rounds", { body }, (r) => t("dir.round_started", { n: r.round, tables: r.tables.length }));
      } }, t("dir.start_round")),
      h("label", { for: "round-number" }, t("comp.col.round")), roundNo,
      h("button", { type: "button", id: "btn-begin-round", onclick: () =>
        act(`rounds/${Number(roundNo.value)}/start`, {}, (v) => t("dir.round_begun", { n: v.round })) }, t("dir.begin_round")),
      h("button", { type: "button", id: "btn-undo-round", onclick: () =>
        act(`rounds/${Number(roundNo.value)}/undo`, {}, (v) => t("dir.round_undone", { n: v.undone })) }, t("dir.undo_round")),
      h("label", { for: "withdraw-entry" }, t("dir.withdraw_entry")), entryNo,
      h("button", { type: "button", id: "btn-withdraw", onclick: () =>
        act(`entries/${Number(entryNo.value)}/withdraw`, {}, (v) => t("dir.withdrawn", { entry: v.withdrawn })) }, t("dir.withdraw")));

    // Each player's entry code, for the director only: printed and handed to the player
    // (with the entry link and its QR code), it is what takes their reserved seat
    // (PROTOCOL.md §17.3). The store keeps only its hash: it is shown here once, from the
    // answer of the import or the reissue that made it.
    const codeList = h("div", { id: "entry-codes-list" });
    const players = h("div", { id: "entry-players" });
    const codes = h("div", { class: "panel director-form", id: "director-codes" },
      h("h3", {}, t("dir.codes")),
      h("p", { class: "muted" }, t("dir.codes_help")),
      codeList,
      h("button", { type: "button", id: "btn-reissue-list", onclick: async () => {
        try {
          const v = await api(path("entries"));
          clear(players);
          players.append(h("table", { class: "comp-table", id: "entry-players-table" },
            h("thead", {}, h("tr", {}, h("th", {}, t("comp.col.team")), h("th", {}, t("dir.codes_player")),
              h("th", {}, t("dir.linked_account")), h("th", {}, ""))),
            h("tbody", {}, v.entries.flatMap((e) => e.players.map((p, i) =>
              h("tr", {}, h("td", {}, e.team), h("td", {}, p.name),
                // The account the player linked (PROTOCOL.md §17.2b): its seat's session.
                h("td", { id: `linked-${e.entry}-${i}` }, p.account?.name ?? "",
                  p.account ? h("button", { type: "button", class: "small secondary", id: `btn-unlink-${e.entry}-${i}`, onclick: async (ev) => {
                    try {
                      await api(path(`entries/${e.entry}/players/${i}/unlink`), { method: "POST" });
                      ev.target.parentElement.textContent = "";
                    } catch (err) {
                      this.fail(err);
                    }
                  } }, t("account.unlink")) : null),
                h("td", {},
                  h("button", { type: "button", class: "small", id: `btn-reissue-${e.entry}-${i}`, onclick: () => this.reissue(id, e.entry, i, codeList) },
                    t("dir.reissue")))))))));
        } catch (err) {
          this.fail(err);
        }
      } }, t("dir.reissue_list")),
      players);
    if (this.issued?.competition === id) this.showCodes(codeList);

    const resultForm = (kind) => {
      const form = h("form", { id: `director-${kind}`, class: "panel director-form" },
        h("h3", {}, t(`dir.${kind}`)),
        h("label", { for: `${kind}-round` }, t("comp.col.round")),
        h("input", { id: `${kind}-round`, name: "round", type: "number", min: 1, required: true, value: 1 }),
        h("label", { for: `${kind}-table` }, t("comp.col.table")),
        h("input", { id: `${kind}-table`, name: "table", type: "number", min: 1, required: true, value: 1 }),
        h("label", { for: `${kind}-result` }, t("comp.col.result")),
        h("select", { id: `${kind}-result`, name: "result" }, RESULTS.map((r) => h("option", { value: r }, t(`comp.result_short.${r}`)))),
        h("label", { for: `${kind}-text` }, t(kind === "correct" ? "dir.reason" : "dir.note")),
        h("input", { id: `${kind}-text`, name: "text", required: kind === "correct" }),
        h("button", { type: "submit", id: `btn-${kind}` }, t(`dir.${kind}_button`)));
      form.addEventListener("submit", async (e) => {
        e.preventDefault();
        const f = form.elements;
        const body = { round: Number(f.round.value), table: Number(f.table.value), result: f.result.value };
        body[kind === "correct" ? "reason" : "note"] = f.text.value;
        try {
          await api(path(kind === "correct" ? "corrections" : "results"), { method: "POST", body });
          this.say("ok", t(`dir.${kind}_done`, { round: body.round, table: body.table }));
        } catch (err) {
          this.fail(err);
        }
      });
      return form;
    };

    return h("div", { id: "director-manage" },
      h("p", {}, h("label", { for: "dir-competition" }, t("dir.competition")), " ", pick, " ",
        h("a", { href: `#/competitions/${id}`, id: "link-public" }, t("dir.public_page"))),
      h("div", { class: "director-grid" }, importForm, codes, round, resultForm("record"), resultForm("correct")));
  }
}
