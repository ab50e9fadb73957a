// A player's profile (`#/players/{name}`: each game's rating, its history as a chart, and
// the player's finished games) and the leaderboards (`#/leaderboard/{game}`), read from
// PROTOCOL.md's "Profiles and leaderboards" and the player's list of games (§16).

import { h, clear } from "./dom.js";
import { t, formatNumber } from "./i18n.js";
import { errorText } from "./errors.js";
import { api } from "./competition.js";
import { ratingChart } from "./chart.js";
import { recordRow, recordsHead } from "./records.js";

/** The games that have leaderboards, in the catalogue's order. */
const GAMES = ["xiangqi", "draughts", "tuolaji"];

/**
 * `#/players/{name}` → { page: "profile", name }; `#/leaderboard` or `#/leaderboard/{game}`
 * → { page: "leaderboard", game }; anything else → null.
 */
export function ratingsRoute(hash) {
  const player = hash.match(/^#\/players\/([^/]+)$/);
  if (player) {
    try {
      return { page: "profile", name: decodeURIComponent(player[1]) };
    } catch {
      return null;
    }
  }
  const board = hash.match(/^#\/leaderboard(?:\/(\w+))?$/);
  return board ? { page: "leaderboard", game: board[1] ?? GAMES[0] } : null;
}

/** A link to a player's profile. */
export function profileLink(name, attrs = {}) {
  return h("a", { href: `#/players/${encodeURIComponent(name)}`, ...attrs }, name);
}

/** A game's name in the page's words (the catalogue's `game.*`). */
const gameName = (game) => t(`game.${game}`);

export class RatingsPage {
  /** @param ctx { close() } */
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    this.shown = null;
  }

  /** Draws what is shown again (a language switch). */
  build() {
    if (this.shown) this.show(this.shown);
  }

  /** Shows `route` (from `ratingsRoute`). */
  show(route) {
    this.shown = route;
    if (route.page === "profile") this.showProfile(route.name);
    else this.showLeaderboard(route.game);
  }

  header(title) {
    return h("div", { class: "records-head" },
      h("h2", { id: "ratings-title" }, title),
      h("a", { href: "#/leaderboard", class: "link", id: "leaderboard-link-page" }, t("ratings.leaderboards")),
      h("button", { type: "button", id: "btn-ratings-close", onclick: () => this.ctx.close() }, t("records.close")));
  }

  /** A read that failed, said in words where the page had its answer. */
  failed(box, err) {
    clear(box);
    box.append(h("p", { class: "muted", id: "ratings-error" }, err.code === "not_found" ? t("ratings.no_such_player") : errorText(err)));
  }

  async showProfile(name) {
    clear(this.root);
    const body = h("div", { id: "profile", "aria-live": "polite" }, h("p", { class: "muted" }, t("lobby.loading")));
    this.root.append(this.header(t("ratings.profile_of", { name })), body);
    let profile;
    try {
      profile = await api(`/api/players/${encodeURIComponent(name)}/profile`);
    } catch (err) {
      if (this.shown?.name === name) this.failed(body, err);
      return;
    }
    if (this.shown?.name !== name) return;
    clear(body);
    body.dataset.account = profile.id;
    if (!profile.ratings.length) body.append(h("p", { class: "muted", id: "profile-unrated" }, t("ratings.unrated")));
    for (const r of profile.ratings) {
      const label = t("ratings.chart_label", { game: gameName(r.game), name: profile.name });
      body.append(h("section", { class: "panel profile-game", "data-game": r.game },
        h("h3", {}, gameName(r.game)),
        h("p", { class: "profile-rating" },
          h("strong", { "data-rating": r.rating }, formatNumber(r.rating), r.provisional ? "?" : ""),
          r.deviation != null ? h("span", { class: "muted" }, " ± ", formatNumber(r.deviation)) : null,
          " · ", t("ratings.games", { count: r.games })),
        ratingChart(r.history, label)));
    }
    const games = h("section", { class: "panel profile-games", id: "profile-games" },
      h("h3", {}, t("ratings.recent_games")), h("p", { class: "muted" }, t("lobby.loading")));
    body.append(games);
    let list;
    try {
      list = await api(`/api/players/${encodeURIComponent(profile.name)}/games?page=0`);
    } catch (err) {
      this.failed(games, err);
      return;
    }
    if (this.shown?.name !== name) return;
    games.lastChild.remove();
    games.append(list.games.length
      ? h("table", { class: "records-table" }, recordsHead(), h("tbody", {}, list.games.map(recordRow)))
      : h("p", { class: "muted" }, t("records.none")));
  }

  async showLeaderboard(game) {
    clear(this.root);
    const tabs = h("nav", { class: "leaderboard-games", "aria-label": t("ratings.leaderboards") },
      GAMES.map((g) => h("a", { href: `#/leaderboard/${g}`, class: "link", "data-game": g,
        "aria-current": g === game ? "page" : null }, gameName(g))));
    const body = h("div", { id: "leaderboard", "data-game": game, "aria-live": "polite" }, h("p", { class: "muted" }, t("lobby.loading")));
    this.root.append(this.header(t("ratings.leaderboard_of", { game: gameName(game) })), tabs, body);
    let board;
    try {
      board = await api(`/api/leaderboard/${encodeURIComponent(game)}`);
    } catch (err) {
      if (this.shown?.game === game) this.failed(body, err);
      return;
    }
    if (this.shown?.game !== game) return;
    clear(body);
    if (!board.leaders.length) {
      body.append(h("p", { class: "muted" }, t("ratings.no_leaders")));
      return;
    }
    body.append(h("table", { class: "records-table leaderboard-table" },
      h("caption", { class: "visually-hidden" }, t("ratings.leaderboard_of", { game: gameName(game) })),
      h("thead", {}, h("tr", {}, ["rank", "name", "rating", "games"].map((c) => h("th", { scope: "col" }, t(`ratings.col.${c}`))))),
      h("tbody", {}, board.leaders.map((l) => h("tr", { "data-account": l.id },
        h("td", {}, formatNumber(l.rank)),
        h("td", {}, profileLink(l.name)),
        h("td", { "data-rating": l.rating }, formatNumber(l.rating), l.provisional ? "?" : ""),
        h("td", {}, formatNumber(l.games)))))));
  }

  destroy() {
    this.shown = null;
    clear(this.root);
  }
}
