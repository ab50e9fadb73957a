// A rating history as a line chart, drawn as inline SVG (no chart library: a handful of
// points on two scales is a polyline). Each point is a rated game; its `<title>` says when
// and at what rating, so a pointer or a screen reader reads it too.

import { svgEl, svgText } from "./duel.js";
import { t, formatDateTime } from "./i18n.js";

const WIDTH = 480;
const HEIGHT = 200;
/** Room for the ratings written at the left, and a margin on the other sides. */
const PAD = { left: 48, right: 12, top: 12, bottom: 12 };

/**
 * The chart of `points` ([{ at_ms, rating, room }], oldest first), labelled `label`.
 * Games are spaced evenly (a rating moves by games, not by days); the rating scale spans
 * the lowest and highest rating, at least 100 points.
 */
export function ratingChart(points, label) {
  const svg = svgEl("svg", {
    class: "rating-chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": label,
    "data-points": points.length,
  });
  if (!points.length) return svg;
  const ratings = points.map((p) => p.rating);
  const mid = (Math.min(...ratings) + Math.max(...ratings)) / 2;
  const span = Math.max(100, Math.max(...ratings) - Math.min(...ratings));
  const low = mid - span / 2;
  const high = mid + span / 2;
  const w = WIDTH - PAD.left - PAD.right;
  const hgt = HEIGHT - PAD.top - PAD.bottom;
  const x = (i) => PAD.left + (points.length === 1 ? w / 2 : (i * w) / (points.length - 1));
  const y = (r) => PAD.top + ((high - r) * hgt) / span;
  svg.append(
    svgEl("line", { class: "chart-axis", x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: HEIGHT - PAD.bottom }),
    svgText(String(Math.round(high)), PAD.left - 6, PAD.top + 4, "chart-label", "end"),
    svgText(String(Math.round(low)), PAD.left - 6, HEIGHT - PAD.bottom, "chart-label", "end"));
  svg.append(svgEl("polyline", {
    class: "chart-line", fill: "none",
    points: points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" "),
  }));
  points.forEach((p, i) => {
    const dot = svgEl("circle", { class: "chart-point", cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: 4,
      "data-rating": p.rating, "data-room": p.room });
    const title = svgEl("title", {});
    title.textContent = t("ratings.point", { rating: p.rating, date: formatDateTime(p.at_ms) });
    dot.append(title);
    svg.append(dot);
  });
  return svg;
}
