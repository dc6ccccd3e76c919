// The router: one page shell, four pages. Links between pages are plain
// links (the server answers every page route with this shell); inside the
// game page, starting a game switches the address with the History API.

import { mountGame } from './game.js';
import { mountAnalysis } from './analysis.js';
import { mountRules } from './rules.js';

let unmount = null;

export function route() {
  const root = document.getElementById('app');
  if (unmount) { try { unmount(); } catch { /* a page failing to close must not block the next */ } }
  unmount = null;
  root.replaceChildren();
  const path = location.pathname.replace(/\/+$/, '') || '/';
  let page = 'play';
  const game = path.match(/^\/g\/([A-Za-z0-9_-]+)$/);
  if (path === '/analysis') {
    page = 'analysis';
    unmount = mountAnalysis(root);
    document.title = 'Analysis — Legion';
  } else if (path === '/rules') {
    page = 'rules';
    unmount = mountRules(root);
    document.title = 'Rules — Legion';
  } else if (game) {
    unmount = mountGame(root, { id: game[1], navigate });
    document.title = 'Game — Legion';
  } else {
    if (path !== '/') history.replaceState(null, '', '/');
    unmount = mountGame(root, { id: null, navigate });
    document.title = 'Legion — play chess pieces and a draughts army';
  }
  for (const a of document.querySelectorAll('[data-nav]')) {
    if (a.dataset.nav === page) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

/** Goes to another page of the app without reloading. */
export function navigate(url, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  route();
}

window.addEventListener('popstate', route);
// A page must never die silently: log, and show a line of text.
window.addEventListener('unhandledrejection', (e) => {
  console.warn('legion:', e.reason);
  e.preventDefault();
});
route();
