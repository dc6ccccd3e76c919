// @ts-check
// Moves as the page shows them (RULES 6.4): the server writes the piece
// letters of 6.4 (K Q R B N); the Russian site shows the glossary's
// letters (Кр Ф Л С К, docs/GLOSSARY.ru.md), and the move box takes
// either. Canonical moves (6.3) and game records stay as the rules write
// them: only what a person reads or types changes.

import { lang } from './i18n.js';

/** @type {Record<string, string>} */
const RU_LETTER = { K: 'Кр', Q: 'Ф', R: 'Л', B: 'С', N: 'К' };
/** Longest first: Кр (King) before К (Knight). @type {[string, string][]} */
const FROM_RU = [['Кр', 'K'], ['Ф', 'Q'], ['Л', 'R'], ['С', 'B'], ['К', 'N']];

/**
 * A move for people in the page's language: `Nf3` is `Кf3` in Russian.
 * @param {string} human the server's notation (6.4)
 * @param {string} [language] the page's, unless given
 */
export function showMove(human, language = lang) {
  if (language !== 'ru') return human;
  const letter = RU_LETTER[human.charAt(0)];
  return letter ? letter + human.slice(1) : human;
}

/**
 * A typed move in the server's letters: `Кf3` and `Nf3` both become `Nf3`;
 * anything else is sent as typed, for the server to read or explain.
 * @param {string} text
 */
export function serverLetters(text) {
  const s = text.trim();
  for (const [ru, en] of FROM_RU) if (s.startsWith(ru)) return en + s.slice(ru.length);
  return s;
}
