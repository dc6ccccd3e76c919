// @ts-check
// Sounds, made with the Web Audio API (no sound files): a move, a capture,
// check, a King removed (mate in Phase 1), the end of a game and low time.
// Browsers allow sound only after the person has touched the page, so
// nothing plays before the first pointer or key press. The switch is kept
// in localStorage ('legion:sound': 'on' or 'off'; on unless turned off).
//
// For tests, the page records the last sound it played on <html>:
// data-sound (its name) and data-sound-count.

const KEY = 'legion:sound';
/** @type {AudioContext | null} */
let ctx = null;
let touched = false;
/** @type {AudioBuffer | null} */
let noiseBuffer = null;
/** @type {Set<(on: boolean) => void>} */
const listeners = new Set();

/**
 * @typedef {(ac: AudioContext, out: AudioNode) => void} Sound
 * @typedef {{freq: number, to?: number, start?: number, dur?: number, type?: OscillatorType, gain?: number, attack?: number}} Tone
 * @typedef {{start?: number, dur?: number, freq?: number, q?: number, gain?: number}} Noise
 */

export function soundOn() {
  try { return localStorage.getItem(KEY) !== 'off'; } catch { return true; }
}

/** @param {boolean} on */
export function setSoundOn(on) {
  try { localStorage.setItem(KEY, on ? 'on' : 'off'); } catch { /* private mode: this page only */ }
  if (on) context();
  for (const fn of listeners) fn(on);
}

/**
 * Calls fn(on) whenever the switch changes (another switch on the page).
 * @param {(on: boolean) => void} fn
 */
export function onSoundChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** @returns {AudioContext | null} */
function context() {
  if (!touched) return null;
  if (!ctx) {
    const AC = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!AC) return null;
    try { ctx = new AC(); } catch { return null; }
  }
  if (ctx.state === 'suspended') ctx.resume().catch(() => {});
  return ctx;
}

function firstGesture() {
  touched = true;
  if (soundOn()) context();
  for (const type of ['pointerdown', 'keydown']) document.removeEventListener(type, firstGesture, true);
}
for (const type of ['pointerdown', 'keydown']) document.addEventListener(type, firstGesture, true);

// ---- instruments -------------------------------------------------------------

/** @param {AudioContext} ac @param {AudioNode} out @param {Tone} tone */
function tone(ac, out, { freq, to = freq, start = 0, dur = 0.12, type = 'sine', gain = 0.3, attack = 0.004 }) {
  const t0 = ac.currentTime + start;
  const osc = ac.createOscillator();
  const g = ac.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t0);
  if (to !== freq) osc.frequency.exponentialRampToValueAtTime(to, t0 + dur);
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(gain, t0 + attack);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  osc.connect(g).connect(out);
  osc.start(t0);
  osc.stop(t0 + dur + 0.02);
}

/** @param {AudioContext} ac @param {AudioNode} out @param {Noise} noise */
function noise(ac, out, { start = 0, dur = 0.05, freq = 1800, q = 1.2, gain = 0.4 }) {
  if (!noiseBuffer || noiseBuffer.sampleRate !== ac.sampleRate) {
    noiseBuffer = ac.createBuffer(1, Math.floor(ac.sampleRate * 0.3), ac.sampleRate);
    const data = noiseBuffer.getChannelData(0);
    for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
  }
  const t0 = ac.currentTime + start;
  const src = ac.createBufferSource();
  src.buffer = noiseBuffer;
  const filter = ac.createBiquadFilter();
  filter.type = 'bandpass';
  filter.frequency.value = freq;
  filter.Q.value = q;
  const g = ac.createGain();
  g.gain.setValueAtTime(gain, t0);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  src.connect(filter).connect(g).connect(out);
  src.start(t0);
  src.stop(t0 + dur + 0.02);
}

// A wooden knock for a move; a sharper double knock for a capture; two
// bright notes for check; a falling phrase for a King leaving the board; a
// short rising chord for the end; a quiet double tick for low time.
/** @type {Record<string, Sound>} */
const SOUNDS = {
  move: (ac, out) => {
    noise(ac, out, { dur: 0.035, freq: 1400, gain: 0.35 });
    tone(ac, out, { freq: 190, to: 110, dur: 0.09, gain: 0.35 });
  },
  capture: (ac, out) => {
    noise(ac, out, { dur: 0.05, freq: 2200, gain: 0.45 });
    tone(ac, out, { freq: 240, to: 120, dur: 0.1, gain: 0.35 });
    noise(ac, out, { start: 0.07, dur: 0.05, freq: 1600, gain: 0.35 });
    tone(ac, out, { start: 0.07, freq: 170, to: 90, dur: 0.12, gain: 0.3 });
  },
  check: (ac, out) => {
    tone(ac, out, { freq: 880, dur: 0.11, type: 'triangle', gain: 0.22 });
    tone(ac, out, { start: 0.12, freq: 1175, dur: 0.16, type: 'triangle', gain: 0.2 });
  },
  kingRemoved: (ac, out) => {
    [523, 415, 330, 262].forEach((f, i) => tone(ac, out, { start: i * 0.13, freq: f, dur: 0.2, type: 'triangle', gain: 0.22 }));
    tone(ac, out, { start: 0.52, freq: 131, to: 98, dur: 0.45, gain: 0.25 });
  },
  end: (ac, out) => {
    [392, 494, 587, 784].forEach((f, i) => tone(ac, out, { start: i * 0.09, freq: f, dur: 0.5 - i * 0.05, type: 'sine', gain: 0.16 }));
  },
  lowTime: (ac, out) => {
    tone(ac, out, { freq: 1320, dur: 0.06, type: 'square', gain: 0.06 });
    tone(ac, out, { start: 0.16, freq: 1320, dur: 0.06, type: 'square', gain: 0.06 });
  },
};

/** Plays a sound by name ('move', 'capture', 'check', 'kingRemoved', 'end', 'lowTime'), `delay` seconds from now. */
/** @param {string} name */
export function play(name, delay = 0) {
  const make = SOUNDS[name];
  if (!make || !soundOn() || !touched) return false;
  const ac = context();
  if (!ac) return false;
  try {
    const out = ac.createGain();
    out.gain.value = 0.8;
    out.connect(ac.destination);
    if (delay > 0) setTimeout(() => make(ac, out), delay * 1000);
    else make(ac, out);
  } catch {
    return false;
  }
  const root = document.documentElement;
  root.dataset.sound = name;
  root.dataset.soundCount = String(Number(root.dataset.soundCount || 0) + 1);
  return true;
}
