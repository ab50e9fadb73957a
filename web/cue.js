// Cues made with Web Audio (no file to load), unless the person switched sounds off with
// the header's button (kept in localStorage): when it becomes this page's turn to act, when
// that turn begins in check (xiangqi), and when this page's clock runs low. Each cue given
// is counted on <html> (data-cues, data-check-cues, data-low-time-cues), which the
// end-to-end tests read (a headless browser plays no sound).

const KEY = "qipai.sound";
let audio = null;

/** Whether sounds are on (the default). */
export function soundOn() {
  try {
    return globalThis.localStorage?.getItem(KEY) !== "off";
  } catch {
    return true;
  }
}

/** Switches sounds on or off, for this browser. */
export function setSound(on) {
  try {
    globalThis.localStorage?.setItem(KEY, on ? "on" : "off");
  } catch {
    // a private window may refuse; the switch holds for this page anyway
  }
}

/**
 * Plays `hz` for `seconds` when sounds are on, and counts it on <html data-NAME> (the
 * end-to-end tests read the counts: a headless browser plays no sound).
 */
function tone(name, hz, seconds) {
  if (!soundOn()) return;
  const root = document.documentElement;
  root.dataset[name] = String(Number(root.dataset[name] ?? 0) + 1);
  try {
    audio ??= new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = hz;
    gain.gain.value = 0.08;
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + seconds);
  } catch {
    // no audio here: the cue was counted all the same
  }
}

/** It is this page's turn: a tone of 0.12 s (counted on data-cues). */
export function turnCue() {
  tone("cues", 880, 0.12);
}

/** It is this page's turn and its king is in check: a higher, longer tone instead. */
export function checkCue() {
  tone("checkCues", 1320, 0.3);
}

/** This page's clock has just fallen below the low-time mark: a low tone. */
export function lowTimeCue() {
  tone("lowTimeCues", 440, 0.4);
}
