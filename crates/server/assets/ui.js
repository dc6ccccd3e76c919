// @ts-check
// Small DOM helpers shared by the pages.

import { t } from './i18n.js';

/** @typedef {Node | string | number | null | undefined | false} Child */

/**
 * h('button.primary', {onclick}, 'text', child...) — a tiny element
 * builder: attributes set one by one, `on…` functions as listeners, `text`
 * as the text, strings as text nodes (never markup).
 * @param {string} spec tag and classes: 'button.nav.primary'
 * @param {Record<string, any> | Child | Child[]} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {any} the element; typed loosely, as callers use it as the
 *   element they asked for (a dialog, a form, an input ...)
 */
export function h(spec, attrs, ...children) {
  const [tag, ...classes] = spec.split('.');
  const el = document.createElement(tag || 'div');
  if (classes.length) el.className = classes.join(' ');
  if (attrs !== null && attrs !== undefined && (typeof attrs !== 'object' || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(/** @type {Child | Child[]} */ (attrs));
    attrs = null;
  }
  for (const [k, v] of Object.entries(/** @type {Record<string, any>} */ (attrs || {}))) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'text') el.textContent = v;
    else if (k === 'style') el.style.cssText = v; // CSSOM: a style attribute would break the CSP
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** @param {Element} el @param {string} text */
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/**
 * Shows a message in an error element (data-error), or hides it when empty.
 * @param {HTMLElement} el
 * @param {string | null | undefined} text
 */
export function showError(el, text) {
  setText(el, text || '');
  el.hidden = !text;
}

/** 5:03, 0:09.4 under ten seconds, 1:02:03 over an hour. @param {number} ms */
export function formatClock(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) return `0:0${Math.floor(ms / 1000)}.${Math.floor((ms % 1000) / 100)}`;
  const total = Math.ceil(ms / 1000);
  const hours = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return hours ? `${hours}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

let toastTimer = 0;

/**
 * A short-lived note ("Copied") announced to screen readers too.
 * @param {string} text
 */
export function toast(text) {
  const box = document.getElementById('toast') || document.body.appendChild(h('div', { id: 'toast', role: 'status', 'aria-live': 'polite' }));
  box.textContent = text;
  box.classList.add('show');
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.remove('show'), 1800);
}

/** True when a key press belongs to a text field, not to the page. @param {Event} e */
export function typingIn(e) {
  const t = /** @type {HTMLElement | null} */ (e.target);
  return t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
}

/** "White" / "Black" in the page's language. */
export const sideName = (/** @type {string} */ c) => (c === 'w' || c === 'b' ? t(`side.${c}`) : '');
export const other = (/** @type {string} */ c) => (c === 'w' ? 'b' : 'w');

/** A screen used with a finger (no right button, no hover): help says "touch", not "right-click". */
export function touchScreen() {
  try { return matchMedia('(pointer: coarse)').matches; } catch { return false; }
}
