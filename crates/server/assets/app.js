// @ts-check
// The router: one page shell, four pages. Links between pages are plain
// links (the server answers every page route with this shell); inside the
// game page, starting a game switches the address with the History API.
// The page's language is loaded first (i18n.js): every text comes from it.

import { mountGame } from './game.js';
import { mountAnalysis } from './analysis.js';
import { mountRules } from './rules.js';
import { t, lang, LANGUAGES, loadLanguage, setLanguage, translateStatic } from './i18n.js';
import { h } from './ui.js';

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
  if (path === '/analysis') {
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
    unmount = mountGame(root, { id: null, navigate });
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
route();
