// @ts-check
// The router: one page shell, its pages (game, analysis, study, learn, puzzles, rules, players...). Links between pages are plain
// links (the server answers every page route with this shell); inside the
// game page, starting a game switches the address with the History API.
// The page's language is loaded first (i18n.js): every text comes from it.

import { mountGame } from './game.js';
import { mountAnalysis } from './analysis.js';
import { mountStudy } from './study.js';
import { mountRules } from './rules.js';
import { mountLobby } from './lobby.js';
import { t, lang, LANGUAGES, loadLanguage, setLanguage, translateStatic } from './i18n.js';
import { h } from './ui.js';
import { pathIcon } from './svg.js';
import { applySettings, openSettingsDialog } from './settings.js';
import { mountAccountMenu, mountSignIn, mountAccount } from './account.js';
import { mountProfile } from './profile.js';
import { mountLeaderboard } from './leaderboard.js';
import { mountTv } from './tv.js';
import { mountPuzzles } from './puzzles.js';
import { mountLearn } from './learn.js';

/** @type {(() => void) | null} the page shown, to close before the next */
let unmount = null;

export function route() {
  const root = document.getElementById('app');
  if (!root) return;
  if (unmount) { try { unmount(); } catch { /* a page failing to close must not block the next */ } }
  unmount = null;
  root.replaceChildren();
  const path = location.pathname.replace(/\/+$/, '') || '/';
  let page = 'play';
  const game = path.match(/^\/g\/([A-Za-z0-9_-]+)$/);
  const player = path.match(/^\/@\/([^/]+)$/);
  const learn = path.match(/^\/learn(?:\/([A-Za-z0-9_-]{1,64}))?$/);
  const study = path.match(/^\/study\/([A-Za-z0-9]{1,64})$/);
  if (study) {
    page = 'analysis';
    unmount = mountStudy(root, study[1]);
    document.title = t('study.title');
  } else if (player) {
    page = 'players';
    let name = player[1];
    try { name = decodeURIComponent(name); } catch { /* shown as written */ }
    unmount = mountProfile(root, name);
    document.title = t('profile.pageTitle', { name });
  } else if (learn) {
    page = 'learn';
    unmount = mountLearn(root, { taskId: learn[1] || null, navigate });
    document.title = t('common.title.learn');
  } else if (path === '/players') {
    page = 'players';
    unmount = mountLeaderboard(root);
    document.title = t('common.title.players');
  } else if (path === '/tv') {
    page = 'tv';
    unmount = mountTv(root, navigate);
    document.title = t('common.title.tv');
  } else if (path === '/puzzles' || path.startsWith('/puzzles/')) {
    page = 'puzzles';
    unmount = mountPuzzles(root, path);
    document.title = t('common.title.puzzles');
  } else if (path === '/signin') {
    unmount = mountSignIn(root);
    document.title = t('common.title.signIn');
  } else if (path === '/account') {
    unmount = mountAccount(root);
    document.title = t('common.title.account');
  } else if (path === '/analysis') {
    page = 'analysis';
    unmount = mountAnalysis(root);
    document.title = t('common.title.analysis');
  } else if (path === '/rules') {
    page = 'rules';
    unmount = mountRules(root);
    document.title = t('common.title.rules');
  } else if (game) {
    unmount = mountGame(root, { id: game[1], navigate });
    document.title = t('common.title.game');
  } else {
    if (path !== '/') history.replaceState(null, '', '/');
    const closeGame = mountGame(root, { id: null, navigate });
    // Below the board: people to play (issue 20).
    const closeLobby = mountLobby(root, { navigate });
    unmount = () => { closeLobby(); closeGame(); };
    document.title = t('common.title.home');
  }
  for (const a of document.querySelectorAll('[data-nav]')) {
    if (a.getAttribute('data-nav') === page) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

/**
 * Goes to another page of the app without reloading.
 * @param {string} url
 * @param {{replace?: boolean}} [opts]
 */
export function navigate(url, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  route();
}

/** EN | RU in the header: the current language is pressed; the other reloads the page in it. */
function languageSwitch() {
  const box = document.querySelector('header .lang-switch');
  if (!box) return;
  /** @type {Record<string, string>} */
  const names = { en: 'English', ru: 'Русский' };
  box.replaceChildren(...LANGUAGES.map((l) => h('button', {
    type: 'button',
    lang: l,
    title: names[l],
    'aria-pressed': String(l === lang),
    'data-lang': l,
    onclick: () => { if (l !== lang) setLanguage(l); },
  }, l.toUpperCase())));
}

// A gear: eight teeth round a ring.
const GEAR = 'M10.3 2h3.4l.5 2.6a8 8 0 0 1 1.9.8l2.2-1.5 2.4 2.4-1.5 2.2a8 8 0 0 1 .8 1.9l2.6.5v3.4l-2.6.5a8 8 0 0 1-.8 1.9l1.5 2.2-2.4 2.4-2.2-1.5a8 8 0 0 1-1.9.8l-.5 2.6h-3.4l-.5-2.6a8 8 0 0 1-1.9-.8l-2.2 1.5-2.4-2.4 1.5-2.2a8 8 0 0 1-.8-1.9L2 13.7v-3.4l2.6-.5a8 8 0 0 1 .8-1.9L3.9 5.7l2.4-2.4 2.2 1.5a8 8 0 0 1 1.9-.8zM12 8.5a3.5 3.5 0 1 0 0 7 3.5 3.5 0 0 0 0-7z';

/** The Settings button in the header, beside the language switch. */
function settingsButton() {
  const box = document.querySelector('header .lang-switch');
  if (!box) return;
  box.before(h('button.settings-button', {
    type: 'button', 'data-settings-button': '', title: t('settings.open'), 'aria-label': t('settings.open'), onclick: () => openSettingsDialog(),
  }, pathIcon(GEAR, 20)));
}

window.addEventListener('popstate', route);
// A page must never die silently: log, and show a line of text.
window.addEventListener('unhandledrejection', (e) => {
  console.warn('legion:', e.reason);
  e.preventDefault();
});
await loadLanguage();
translateStatic(document);
document.querySelector('meta[name="description"]')?.setAttribute('content', t('common.description'));
languageSwitch();
settingsButton();
mountAccountMenu();
applySettings();
route();
