// Accounts on the page (PROTOCOL.md §19, docs/accounts.md): who is signed in, the sign-up
// and sign-in forms (`#/account`), signing out. The session is the server's HttpOnly cookie:
// the page never sees its token, and the WebSocket upgrade carries the cookie, so a page
// that signs in or out only has to connect again to play as the account or as a guest.

import { h, clear } from "./dom.js";
import { t } from "./i18n.js";
import { errorText } from "./errors.js";
import { api } from "./competition.js";

/** `#/account`: whether the address asks for the sign-in page. */
export function accountRoute(hash) {
  return hash === "#/account";
}

/** The signed-in account ({ id, name }), or null (a guest, or the server unreachable). */
export async function currentAccount() {
  try {
    return (await api("/api/account")).account ?? null;
  } catch {
    return null;
  }
}

/** Ends the session (the cookie is cleared whatever the answer). */
export async function signOut() {
  try {
    await api("/api/account/signout", { method: "POST" });
  } catch {
    // Without a live session there is nothing to end.
  }
}

/**
 * A refusal of the forms in words: a wrong name or password said for a player (the
 * catalogue's `err.bad_credentials` is the director's), everything else from the catalogue.
 */
function refusalText(err) {
  return err.code === "bad_credentials" ? t("account.bad_credentials") : errorText(err);
}

export class AccountPage {
  /**
   * @param root the element to draw in
   * @param ctx { account() (the signed-in account or null), signedIn(account) (after a
   *   sign-up or sign-in), signOut(), close() }
   */
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
  }

  /** Draws the page in the current language. */
  build() {
    clear(this.root);
    const account = this.ctx.account();
    const head = h("div", { class: "records-head" },
      h("h2", { id: "account-title" }, t(account ? "account.title_signed_in" : "account.title")),
      h("button", { type: "button", id: "btn-account-close", onclick: () => this.ctx.close() }, t("records.close")));
    this.root.append(head);
    if (account) {
      this.root.append(h("section", { class: "panel account-signed-in" },
        h("p", { id: "account-who" }, t("account.signed_in_as", { name: account.name })),
        h("p", {}, h("a", { href: `#/players/${encodeURIComponent(account.name)}`, id: "account-profile" }, t("ratings.my_profile"))),
        h("button", { type: "button", id: "btn-sign-out", onclick: () => this.ctx.signOut() }, t("account.sign_out"))),
        this.entries());
      return;
    }
    this.error = h("p", { class: "form-error", id: "account-error", role: "alert" });
    this.root.append(h("p", { class: "muted" }, t("account.explain")), this.error,
      h("div", { class: "account-forms" },
        this.form("signin", "account.sign_in", "current-password"),
        this.form("signup", "account.sign_up", "new-password")));
  }

  /**
   * The competition entries linked to the account (`GET /api/account/entries`, PROTOCOL.md
   * §17.2b): each player, competition and next table, with a button that unlinks it.
   */
  entries() {
    const list = h("ul", { id: "account-entries" });
    const note = h("p", { class: "muted", id: "account-entries-note", role: "status" });
    const section = h("section", { class: "panel account-entries" }, h("h3", {}, t("account.entries")), list, note);
    const load = async () => {
      let entries;
      try {
        entries = (await api("/api/account/entries")).entries;
      } catch (err) {
        note.textContent = errorText(err);
        return;
      }
      clear(list);
      if (!entries.length) note.textContent = t("account.entries_none");
      for (const v of entries) {
        const where = v.table != null && v.room != null && !v.result
          ? t("lobby.next.table", { round: v.round, table: v.table, seat: v.seat + 1 })
          : v.round == null ? t("lobby.next.not_paired") : "";
        list.append(h("li", { class: "account-entry" },
          h("span", {}, t("lobby.next.who", { name: v.player_name, team: v.team, competition: v.name })), " ", where, " ",
          h("button", { type: "button", class: "secondary small", id: `btn-unlink-${v.competition}`, onclick: async () => {
            try {
              await api("/api/entry/unlink", { method: "POST", body: { competition: v.competition } });
              note.textContent = t("account.unlinked");
              load();
            } catch (err) {
              note.textContent = errorText(err);
            }
          } }, t("account.unlink"))));
      }
    };
    load();
    return section;
  }

  /** One form (`kind`: signin or signup) posting `{name, password}` to the server. */
  form(kind, titleKey, autocomplete) {
    const name = h("input", { id: `${kind}-name`, name: "name", maxlength: 32, autocomplete: "username", required: true });
    const password = h("input", { id: `${kind}-password`, name: "password", type: "password", autocomplete, required: true,
      minlength: kind === "signup" ? 8 : null });
    const button = h("button", { type: "submit", class: kind === "signin" ? "primary" : null, id: `btn-${kind}` }, t(titleKey));
    const form = h("form", { class: "panel account-form", id: `${kind}-form`, onsubmit: async (e) => {
      e.preventDefault();
      button.disabled = true;
      this.error.textContent = "";
      try {
        const answer = await api(`/api/account/${kind}`, { method: "POST", body: { name: name.value.trim(), password: password.value } });
        this.ctx.signedIn(answer.account);
      } catch (err) {
        this.error.textContent = refusalText(err);
        button.disabled = false;
      }
    } },
      h("h3", {}, t(titleKey)),
      h("label", { for: `${kind}-name` }, t("account.name")), name,
      h("label", { for: `${kind}-password` }, t("account.password")), password,
      kind === "signup" ? h("p", { class: "muted" }, t("account.password_rule")) : null,
      button);
    return form;
  }

  destroy() {
    clear(this.root);
  }
}
