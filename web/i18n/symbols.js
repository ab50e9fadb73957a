// What both languages write the same way: the pieces' characters (each side its own, so
// that colour is never the only sign), the board's numerals and river, the jokers' faces,
// the brand and the languages' own names. Spread into both catalogues.

export default {
  "piece.K": "帅", "piece.A": "仕", "piece.B": "相", "piece.N": "傌", "piece.R": "俥", "piece.C": "炮", "piece.P": "兵",
  "piece.k": "将", "piece.a": "士", "piece.b": "象", "piece.n": "馬", "piece.r": "車", "piece.c": "砲", "piece.p": "卒",
  "page.brand": "棋牌",
  "page.brand_latin": "qipai",
  "lang.zh-CN": "中文",
  "lang.en": "English",
  "card.big_face": "大",
  "card.small_face": "小",
  "card.joker_face": "王",
  "xq.red_numerals": "一,二,三,四,五,六,七,八,九",
  "xq.black_numerals": "１,２,３,４,５,６,７,８,９",
  "xq.river_left": "楚 河",
  "xq.river_right": "汉 界",
};
