// The page: plays as the signed-in account, or asks a guest for a name once; connects, and
// shows the lobby or the table the player is at. Everything here is wiring; the pieces are
// net.js (connection), room.js (room state), lobby.js and the games' tables (xiangqi.js,
// tuolaji.js, draughts.js), account.js (signing in) and ratings.js (profiles, leaderboards).

import { Connection, storedName, storeName, forgetSession } from "./net.js";
import { RoomState } from "./room.js";
import { Lobby } from "./lobby.js";
import { XiangqiTable, applyEvent as applyXiangqi } from "./xiangqi.js";
import { TuolajiTable, applyEvent as applyTuolaji } from "./tuolaji.js";
import { DraughtsTable, applyEvent as applyDraughts } from "./draughts.js";
import { Records } from "./records.js";
import { CompetitionPage, DirectorPage, competitionRoute } from "./competition.js";
import { AccountPage, accountRoute, currentAccount, signOut } from "./account.js";
import { RatingsPage, ratingsRoute } from "./ratings.js";
import { h, clear } from "./dom.js";
import { t, language, setLanguage, onLanguageChange, applyStatic } from "./i18n.js";
import { errorText } from "./errors.js";
import { soundOn, setSound, turnCue, checkCue } from "./cue.js";

/**
 * The games this page can show, keyed by the wire's game kind: the one place a game is
 * listed. A room of any other kind is shown as unsupported, never as another game.
 */
const GAMES = {
  xiangqi: { Table: XiangqiTable, applyEvent: applyXiangqi },
  tuolaji: { Table: TuolajiTable, applyEvent: applyTuolaji },
  draughts: { Table: DraughtsTable, applyEvent: applyDraughts },
};

/** The table of a game this page does not know: says so and offers to leave. */
class UnsupportedTable {
  constructor(root, { room, leave }) {
    this.root = root;
    this.room = room;
    this.leave = leave;
    this.build();
  }

  build() {
    clear(this.root);
    this.root.append(h("div", { class: "panel", id: "unsupported" },
      h("p", {}, t("table.unsupported", { game: this.room.game })),
      h("button", { id: "btn-leave-unsupported", onclick: () => this.leave() }, t("table.leave"))));
  }

  render() {}

  destroy() {
    clear(this.root);
  }
}

const $ = (id) => document.getElementById(id);
const screens = {
  name: $("name-screen"), lobby: $("lobby"), table: $("table"), records: $("records"), competitions: $("competitions"),
  account: $("account"), ratings: $("ratings"),
};

let conn = null;
let room = null;
let lobby = null;
let table = null;
let resumeTimer = null;
let records = null;
let competitions = null; // the competition pages (web/competition.js), while their address is shown
let accountPage = null; // the sign-in page (web/account.js), while `#/account` is shown
let ratingsPage = null; // a profile or a leaderboard (web/ratings.js), while shown
/** The signed-in account ({ id, name }), or null for a guest. */
let account = null;

/** `#/games` ("my games") or `#/games/{id}` (a replay, shareable): { id } or null. */
function recordsRoute() {
  const m = location.hash.match(/^#\/games(?:\/(\d+))?$/);
  return m ? { id: m[1] ?? null } : null;
}

/** A short message in the corner, e.g. the server's reason for refusing a move. */
function toast(text, kind = "error") {
  const el = h("div", { class: `toast ${kind}`, role: "status" }, text);
  $("toasts").append(el);
  setTimeout(() => el.remove(), 5000);
}

/** The screen an address asks for over the lobby and the table, or null. */
function pageScreen() {
  if (recordsRoute()) return "records";
  if (accountRoute(location.hash)) return "account";
  if (ratingsRoute(location.hash)) return "ratings";
  return competitionRoute(location.hash) ? "competitions" : null;
}

function show(name) {
  // "My games", replays and competitions stay on screen while the room goes on underneath.
  const page = pageScreen();
  if (page && name !== page) return;
  for (const [key, el] of Object.entries(screens)) el.hidden = key !== name;
  if (name === "lobby") lobby?.show();
  else lobby?.hide();
}

function showConnection(state) {
  const pill = $("conn-state");
  // Hidden until there is a connection: a visitor without a name (a competition's public
  // page, the director's) has none, and "connecting…" would stay for ever.
  pill.hidden = false;
  pill.dataset.state = state;
  pill.textContent = t(`conn.${state}`);
  const bar = $("offline");
  clear(bar);
  if (state === "offline") {
    bar.append(h("span", {}, t("conn.lost")),
      h("button", { class: "small", onclick: () => conn.retryNow() }, t("conn.retry")));
  } else if (state === "stopped") {
    bar.append(h("span", {}, t("conn.elsewhere")),
      h("button", { class: "small", id: "btn-play-here", onclick: () => conn.reconnect() }, t("conn.play_here")));
  }
  bar.hidden = !bar.firstChild;
  document.body.classList.toggle("is-offline", state !== "online");
}

let wasMyTurn = false;

/**
 * A cue when it becomes this page's turn (web/cue.js; switched off in the header): the
 * check cue instead when the turn begins in check.
 */
function cueTurn() {
  const mine = Boolean(room.ready && table?.myTurn?.());
  if (mine && !wasMyTurn) {
    if (table?.myCheck?.()) checkCue();
    else turnCue();
  }
  wasMyTurn = mine;
}

/** The header's sound switch, in the current language. */
function showSound() {
  const button = $("sound");
  const on = soundOn();
  button.textContent = t(on ? "header.sound_on" : "header.sound_off");
  button.setAttribute("aria-pressed", String(on));
}

/** Shows what the room state says: the table once its snapshot is in, else the lobby. */
function renderRoom() {
  if (room.roomId != null && room.ready) {
    clearTimeout(resumeTimer);
    if (!table || table.roomId !== room.roomId) {
      table?.destroy();
      const Table = GAMES[room.game]?.Table ?? UnsupportedTable;
      table = new Table($("table"), { conn, room, toast, leave });
      table.roomId = room.roomId;
    } else {
      table.render();
    }
    show("table");
  } else if (room.roomId == null) {
    table?.destroy();
    table = null;
    show("lobby");
  }
}

async function leave() {
  try {
    await conn.request({ type: "leave" });
  } catch (err) {
    if (err.code !== "room_closed") toast(errorText(err));
  }
  // Whatever the answer, this page is done with the room.
  room.clear();
  renderRoom();
}

/**
 * The header's player: the account's name (a link to its profile), or the guest's name
 * marked as a guest; and the link to sign in, or the account's page.
 */
function showWho() {
  const who = $("who");
  clear(who);
  if (account) who.append(h("a", { href: `#/players/${encodeURIComponent(account.name)}`, id: "who-account" }, account.name));
  else if (conn) who.append(t("header.guest", { name: conn.name }));
  $("account-link").textContent = t(account ? "header.account" : "header.sign_in");
  $("change-name").hidden = Boolean(account);
}

function start(name) {
  conn = new Connection(name);
  showWho();
  room = new RoomState(conn, GAMES);
  lobby = new Lobby($("lobby"), { conn, toast, account: () => account });
  room.onChange = () => {
    renderRoom();
    cueTurn();
  };
  room.onEvent = (ev) => table?.onEvent?.(ev);
  conn.onState = showConnection;
  conn.onWelcome = (welcome) => {
    competitions?.online?.();
    if (welcome.room_id != null && room.roomId == null) {
      // A resumed seat: `joined` and a snapshot follow. Spectators are not resumed, so
      // fall back to the lobby if nothing comes.
      resumeTimer = setTimeout(() => { if (room.roomId == null) show("lobby"); }, 1500);
    } else if (welcome.room_id == null) {
      room.clear();
      renderRoom();
    }
  };
  conn.onMessage = (msg) => {
    if (msg.type === "competition_changed") {
      competitions?.changed?.(msg);
      return;
    }
    if (room.handle(msg)) return;
    if (msg.type === "error") {
      // The bar under the header says where the session went; no toast on top of it.
      if (msg.code !== "bad_resume_token" && msg.code !== "playing_elsewhere") toast(errorText(msg));
    } else if (msg.type === "shutdown") {
      toast(t("conn.shutdown"), "info");
    }
  };
  showConnection("connecting");
  conn.connect();
}

function askName() {
  show("name");
  const input = $("name-input");
  input.value = storedName();
  input.focus();
}

$("name-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const name = $("name-input").value.trim();
  if (!name) return;
  if (conn && name === conn.name) {
    show(room.roomId == null ? "lobby" : "table");
    return;
  }
  conn?.close();
  storeName(name);
  start(name);
});

/** A competition's table from its page: leave the page and watch the room. */
async function spectate(roomId) {
  if (!conn) {
    toast(t("comp.name_first"), "info");
    return;
  }
  history.replaceState(null, "", location.pathname + location.search);
  route();
  try {
    await conn.request({ type: "spectate", room_id: roomId });
  } catch (err) {
    toast(errorText(err));
  }
}

/**
 * The competition pages when the address asks for one: "shown"; "left" when they were shown
 * and the address moved on; else null.
 */
function routeCompetitions() {
  const c = competitionRoute(location.hash);
  const kind = c?.page === "director" ? DirectorPage : CompetitionPage;
  let left = null;
  if (competitions && !(c && competitions instanceof kind)) {
    competitions.destroy();
    competitions = null;
    left = "left";
  }
  if (!c) return left;
  competitions ??= new kind($("competitions"), { conn: () => conn, spectate, toast });
  if (c.page === "director") competitions.show();
  else if (c.id != null) competitions.show(c.id);
  else competitions.showList();
  show("competitions");
  return "shown";
}

/**
 * Plays as `signed` (an account after signing in, or null after signing out): a new
 * connection, whose upgrade carries the session's cookie (or none), and a new session.
 */
function playAs(signed) {
  account = signed;
  if (conn) {
    // This page ends the session itself: not "playing elsewhere".
    conn.onState = () => {};
    conn.close();
    $("conn-state").hidden = true;
    $("offline").hidden = true;
    document.body.classList.remove("is-offline");
  }
  conn = null;
  forgetSession();
  history.replaceState(null, "", location.pathname + location.search);
  route();
  if (signed) {
    storeName(signed.name);
    start(signed.name);
  } else {
    storeName("");
    showWho();
    askName();
  }
}

/** The sign-in page or a profile or leaderboard when the address asks for one ("shown"). */
function routeAccountPages() {
  const signIn = accountRoute(location.hash);
  const ratings = ratingsRoute(location.hash);
  let left = null;
  if (accountPage && !signIn) {
    accountPage.destroy();
    accountPage = null;
    left = "left";
  }
  if (ratingsPage && !ratings) {
    ratingsPage.destroy();
    ratingsPage = null;
    left = "left";
  }
  const close = () => { location.hash = ""; };
  if (signIn) {
    accountPage ??= new AccountPage($("account"), {
      account: () => account,
      close,
      signedIn: (signed) => {
        if (room?.roomId != null) toast(t("header.leave_first"), "info");
        else playAs(signed);
      },
      signOut: async () => {
        if (room?.roomId != null) {
          toast(t("header.leave_first"), "info");
          return;
        }
        await signOut();
        playAs(null);
      },
    });
    accountPage.build();
    show("account");
    return "shown";
  }
  if (ratings) {
    ratingsPage ??= new RatingsPage($("ratings"), { close });
    ratingsPage.show(ratings);
    show("ratings");
    return "shown";
  }
  return left;
}

/** Shows "my games" or a replay when the address asks for one, else the lobby or the table. */
function route() {
  const comp = routeCompetitions();
  if (comp === "shown") return;
  const own = routeAccountPages();
  if (own === "shown") return;
  const r = recordsRoute();
  if (r) {
    records ??= new Records($("records"), {
      games: GAMES, name: () => conn?.name ?? storedName(), account: () => account, close: () => { location.hash = ""; },
    });
    if (r.id != null) records.showGame(r.id);
    else records.showList(0);
    show("records");
  } else if (records || comp === "left" || own === "left") {
    records?.destroy();
    records = null;
    show(!conn ? "name" : room.roomId != null && room.ready ? "table" : "lobby");
  }
}
window.addEventListener("hashchange", route);

$("change-name").addEventListener("click", () => {
  if (pageScreen()) {
    // Leave "my games" or the competitions (without a hashchange, which would show the lobby after the form).
    history.replaceState(null, "", location.pathname + location.search);
    route();
  }
  if (room && room.roomId != null) {
    toast(t("header.leave_first"), "info");
    return;
  }
  askName();
});

// The language: the switch in the header, kept in localStorage; switching redraws.
applyStatic();
$("lang").value = language();
$("lang").addEventListener("change", (e) => setLanguage(e.target.value));
showSound();
$("sound").addEventListener("click", () => {
  setSound(!soundOn());
  showSound();
});
onLanguageChange(() => {
  $("lang").value = language();
  showSound();
  // The pages a visitor without a name reads too (no connection): redrawn first.
  records?.build();
  competitions?.build();
  accountPage?.build();
  ratingsPage?.build();
  showWho();
  if (!conn) return;
  showConnection(conn.state);
  lobby?.build();
  if (lobby && !screens.lobby.hidden) lobby.refresh();
  table?.build();
});

// A signed-in browser plays as its account (the cookie), under the account's name.
account = await currentAccount();
if (account) storeName(account.name);
const name = storedName();
if (name) start(name);
else askName();
showWho();
route();
