// @ts-check
// Accounts in the page (docs/API.md, "Accounts"): who is signed in (asked
// once a page load), the header's account menu (profile, account,
// settings, sign out) or its Sign in link, the sign-in and registration
// page (/signin, /signin?register) and the account page (/account:
// change the password, delete the account). An account is an option,
// never a wall: nothing else of the site waits for it.

import { request, ApiError } from './api.js';
import { h, showError } from './ui.js';
import { t } from './i18n.js';
import { openSettingsDialog } from './settings.js';
import { studyApi } from './study-data.js';

/** @typedef {{username: string, ratings: Record<string, {rating: number, rd: number, games: number, provisional: boolean}>}} Me */

/** @type {Promise<Me | null> | null} */
let asked = null;

/** The signed-in account, or null (asked once; `refresh` asks again). @param {boolean} [refresh] @returns {Promise<Me | null>} */
export function me(refresh = false) {
  if (!asked || refresh) {
    asked = request('GET', '/api/account').then(
      (a) => (a && typeof a.username === 'string' ? /** @type {Me} */ (a) : null),
      () => null);
  }
  return asked;
}

/** A player's page. @param {string} name */
export const profilePath = (name) => `/@/${encodeURIComponent(name)}`;

/** Where a page sends the reader back to after signing in: a path of this site only. */
function nextPath() {
  const next = new URLSearchParams(location.search).get('next') || '/';
  return /^\/(?!\/)/.test(next) ? next : '/';
}

/** The header's account part: the name with its menu, or a Sign in link. */
export async function mountAccountMenu() {
  const header = document.querySelector('header.top');
  if (!header) return;
  header.querySelector('[data-account]')?.remove();
  const box = h('div.account-box', { 'data-account': '' });
  const before = header.querySelector('.settings-button') || header.querySelector('.lang-switch');
  if (before) before.before(box); else header.append(box);
  const account = await me();
  if (!account) {
    const here = location.pathname + location.search;
    const href = location.pathname === '/signin' ? '/signin' : `/signin?next=${encodeURIComponent(here)}`;
    box.replaceChildren(h('a.sign-in-link', { href, 'data-sign-in': '' }, t('account.signIn')));
    return;
  }
  const menu = h('div.account-menu', { role: 'menu', hidden: true, id: 'account-menu' },
    h('a', { href: profilePath(account.username), role: 'menuitem' }, t('account.menu.profile')),
    h('a', { href: '/account', role: 'menuitem' }, t('account.menu.account')),
    h('a', { href: '/account#studies', role: 'menuitem', 'data-menu-studies': '' }, t('study.yours')),
    h('button', { type: 'button', role: 'menuitem', onclick: () => { close(); openSettingsDialog(); } }, t('settings.open')),
    h('button', { type: 'button', role: 'menuitem', 'data-sign-out': '', onclick: () => signOut() }, t('account.signOut')));
  const button = h('button.account-button', {
    type: 'button', 'aria-haspopup': 'menu', 'aria-expanded': 'false', 'aria-controls': 'account-menu', 'data-account-button': '',
    onclick: () => (menu.hidden ? open() : close()),
  }, h('span.account-name', account.username), h('span', { 'aria-hidden': 'true' }, ' ▾'));
  function open() {
    menu.hidden = false;
    button.setAttribute('aria-expanded', 'true');
    menu.querySelector('a')?.focus();
  }
  function close() {
    menu.hidden = true;
    button.setAttribute('aria-expanded', 'false');
  }
  document.addEventListener('click', (e) => { if (!box.contains(/** @type {Node} */ (e.target))) close(); });
  box.addEventListener('keydown', (/** @type {KeyboardEvent} */ e) => { if (e.key === 'Escape') { close(); button.focus(); } });
  box.replaceChildren(button, menu);
}

async function signOut() {
  try { await request('POST', '/api/account/logout', {}); } catch { /* the cookie is cleared anyway on the next answer */ }
  asked = null;
  location.href = '/';
}

/**
 * A labelled field.
 * @param {string} label @param {Record<string, any>} attrs
 */
function field(label, attrs) {
  const input = h('input', attrs);
  return { input, el: h('label.field', h('span', label), input) };
}

/** The sign-in and registration page. @param {HTMLElement} root */
export function mountSignIn(root) {
  let registering = new URLSearchParams(location.search).has('register');
  const page = h('section.account-page', { 'data-sign-in-page': '' });
  root.append(page);
  const draw = () => {
    const name = field(t('account.username'), { name: 'username', autocomplete: 'username', required: true, minlength: 2, maxlength: 20, autocapitalize: 'off', spellcheck: 'false' });
    const pass = field(t('account.password'), { name: 'password', type: 'password', autocomplete: registering ? 'new-password' : 'current-password', required: true, minlength: registering ? 8 : 1, maxlength: 128 });
    const error = h('div.error', { role: 'alert', hidden: true, 'data-error': '' });
    const submit = h('button.primary', { type: 'submit' }, registering ? t('account.register') : t('account.signIn'));
    const form = h('form.account-form', {
      onsubmit: async (/** @type {Event} */ e) => {
        e.preventDefault();
        submit.disabled = true;
        showError(error, null);
        try {
          await request('POST', registering ? '/api/account/register' : '/api/account/login',
            { username: name.input.value.trim(), password: pass.input.value });
          me(true);
          location.href = nextPath();
        } catch (err) {
          showError(error, err instanceof ApiError ? err.message : String(err));
          submit.disabled = false;
        }
      },
    }, name.el, pass.el, registering ? h('p.small', t('account.rules')) : '', error, h('div.row.buttons', submit));
    const switchTo = h('button.link', {
      type: 'button', 'data-switch': '',
      onclick: () => { registering = !registering; draw(); },
    }, registering ? t('account.haveAccount') : t('account.noAccount'));
    page.replaceChildren(h('h1', registering ? t('account.registerTitle') : t('account.signInTitle')), form, h('p', switchTo),
      h('p.small', t('account.optional')));
    name.input.focus();
  };
  draw();
  me().then((a) => {
    if (a && page.isConnected) page.prepend(h('p.note', t('account.already', { name: a.username })));
  });
  return () => {};
}

/** The account page: the password, the deletion, signing out. @param {HTMLElement} root */
export function mountAccount(root) {
  const page = h('section.account-page', { 'data-account-page': '' });
  root.append(page);
  me().then((a) => {
    if (!a) {
      page.replaceChildren(h('h1', t('account.title')), h('p', t('account.notSignedIn')),
        h('p', h('a.button.primary', { href: `/signin?next=${encodeURIComponent('/account')}` }, t('account.signIn'))));
      return;
    }
    const old = field(t('account.oldPassword'), { type: 'password', autocomplete: 'current-password', required: true, maxlength: 128 });
    const fresh = field(t('account.newPassword'), { type: 'password', autocomplete: 'new-password', required: true, minlength: 8, maxlength: 128 });
    const passError = h('div.error', { role: 'alert', hidden: true });
    const passDone = h('p.note', { role: 'status', hidden: true }, t('account.passwordChanged'));
    const passForm = h('form.account-form', {
      'data-password-form': '',
      onsubmit: async (/** @type {Event} */ e) => {
        e.preventDefault();
        showError(passError, null);
        passDone.hidden = true;
        try {
          await request('POST', '/api/account/password', { old: old.input.value, new: fresh.input.value });
          old.input.value = '';
          fresh.input.value = '';
          passDone.hidden = false;
        } catch (err) {
          showError(passError, err instanceof ApiError ? err.message : String(err));
        }
      },
    }, h('h2', t('account.changePassword')), h('p.small', t('account.passwordNote')), old.el, fresh.el, passError, passDone,
    h('div.row.buttons', h('button.primary', { type: 'submit' }, t('account.changePassword'))));
    const confirm = field(t('account.password'), { type: 'password', autocomplete: 'current-password', required: true, maxlength: 128 });
    const sure = h('input', { type: 'checkbox', required: true });
    const delError = h('div.error', { role: 'alert', hidden: true });
    const delForm = h('form.account-form.danger-zone', {
      'data-delete-form': '',
      onsubmit: async (/** @type {Event} */ e) => {
        e.preventDefault();
        showError(delError, null);
        try {
          await request('POST', '/api/account/delete', { password: confirm.input.value });
          location.href = '/';
        } catch (err) {
          showError(delError, err instanceof ApiError ? err.message : String(err));
        }
      },
    }, h('h2', t('account.delete')), h('p.small', t('account.deleteNote')), confirm.el,
    h('label.choice', sure, h('span', t('account.deleteSure'))), delError,
    h('div.row.buttons', h('button.danger', { type: 'submit' }, t('account.delete'))));
    page.replaceChildren(
      h('h1', t('account.title')),
      h('p', t('account.signedInAs'), ' ', h('a', { href: profilePath(a.username) }, a.username)),
      studyList(), passForm, delForm,
      h('p', h('button', { type: 'button', onclick: () => signOut() }, t('account.signOut'))));
  });
  return () => {};
}

/** The signed-in player's studies, the last changed first (issue 21). */
function studyList() {
  const list = h('ul.study-list', { 'data-study-list': '' });
  const box = h('section.account-form', { id: 'studies' }, h('h2', t('study.yours')), list);
  studyApi.mine().then((r) => {
    if (!r.studies.length) { list.replaceChildren(h('li.small', t('study.none'))); return; }
    list.replaceChildren(...r.studies.map((s) => h('li',
      h('a', { href: `/study/${encodeURIComponent(s.id)}`, 'data-study-link': s.id }, s.title), ' ',
      h('span.small', new Date(s.updated_ms).toLocaleString()))));
  }, (e) => list.replaceChildren(h('li.error', e instanceof Error ? e.message : String(e))));
  return box;
}
