// A cue when it becomes this page's turn to act: a short tone made with Web Audio (no file
// to load), unless the person switched sounds off with the header's button (kept in
// localStorage). Each cue given is counted on <html data-cues>, which the end-to-end
// tests read (a headless browser plays no sound).

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

/** The turn cue: a tone of 0.12 s, when sounds are on. */
export function turnCue() {
  if (!soundOn()) return;
  const root = document.documentElement;
  root.dataset.cues = String(Number(root.dataset.cues ?? 0) + 1);
  try {
    audio ??= new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.value = 0.08;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.12);
  } catch {
    // no audio here: the cue was counted all the same
  }
}
