// Chinese notation (中文纵线记谱, 第1条1.1, 第7条7.5) of a xiangqi move the person has picked
// but not yet played, for the keyboard's confirm button: 马二进三, not "h0–g2". The server
// names every played move itself (`chinese` in `moved`, from games/src/xiangqi/notation/
// chinese.rs); this is the same writing, needed before the move exists. The end-to-end test
// i18n_keyboard checks that the button says what the server then records.

const FILES = "abcdefghi";
const RED_NUMERALS = "一二三四五六七八九";
const BLACK_NUMERALS = "１２３４５６７８９";
const NAMES = {
  K: "帅", A: "仕", B: "相", N: "马", R: "车", C: "炮", P: "兵",
  k: "将", a: "士", b: "象", n: "马", r: "车", c: "炮", p: "卒",
};

const isRed = (letter) => letter === letter.toUpperCase();
const numeral = (red, n) => (red ? RED_NUMERALS : BLACK_NUMERALS)[n - 1] ?? "?";
/** A file's number from the mover's own right. */
const fileNumber = (red, file) => (red ? 9 - file : file + 1);
/** How far forward a rank is for the mover (0 = its own back rank). */
const forwardness = (red, rank) => (red ? rank : 9 - rank);

/** The ranks on `file` holding `letter`. */
function ranksOnFile(pieces, letter, file) {
  const ranks = [];
  for (let rank = 0; rank <= 9; rank += 1) {
    if (pieces.get(`${FILES[file]}${rank}`) === letter) ranks.push(rank);
  }
  return ranks;
}

/** The first two characters: the piece and its file, or a tandem label. */
function designation(pieces, letter, file, rank) {
  const red = isRed(letter);
  const name = NAMES[letter] ?? "?";
  const ownFile = numeral(red, fileNumber(red, file));
  if ("KABkab".includes(letter)) return name + ownFile;
  const onFile = ranksOnFile(pieces, letter, file);
  if (onFile.length < 2) return name + ownFile;
  // Front first: the piece nearest the opponent's back rank.
  onFile.sort((x, y) => forwardness(red, y) - forwardness(red, x));
  const place = Math.max(0, onFile.indexOf(rank));
  let label;
  if (onFile.length <= 3) {
    label = place === 0 ? "前" : onFile.length === 3 && place === 1 ? "中" : "后";
  } else {
    label = RED_NUMERALS[place] ?? "?";
  }
  let tandemFiles = 0;
  for (let f = 0; f < 9; f += 1) if (ranksOnFile(pieces, letter, f).length >= 2) tandemFiles += 1;
  return "Pp".includes(letter) && tandemFiles >= 2 ? label + ownFile : label + name;
}

/**
 * The move `iccs` ("h2e2") in Chinese notation on the board `pieces` (square → FEN letter,
 * as `parseBoard` gives), or `null` when no piece stands on its starting point.
 */
export function chineseMove(pieces, iccs) {
  const file = FILES.indexOf(iccs[0]);
  const rank = Number(iccs[1]);
  const toFile = FILES.indexOf(iccs[2]);
  const toRank = Number(iccs[3]);
  const letter = pieces.get(iccs.slice(0, 2));
  if (!letter || file < 0 || toFile < 0 || Number.isNaN(rank) || Number.isNaN(toRank)) return null;
  const red = isRed(letter);
  const ahead = forwardness(red, toRank);
  const now = forwardness(red, rank);
  const action = ahead > now ? "进" : ahead < now ? "退" : "平";
  const straight = "KRCPkrcp".includes(letter);
  const number = straight && action !== "平" ? Math.abs(ahead - now) : fileNumber(red, toFile);
  return designation(pieces, letter, file, rank) + action + numeral(red, number);
}
