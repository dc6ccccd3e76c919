// Small DOM helpers shared by the pages.

import { t } from './i18n.js';

/** h('button.primary', {onclick}, 'text', child...) — a tiny element builder. */
export function h(spec, attrs, ...children) {
  const [tag, ...classes] = spec.split('.');
  const el = document.createElement(tag || 'div');
  if (classes.length) el.className = classes.join(' ');
  if (attrs && (typeof attrs !== 'object' || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [k, v] of Object.entries(attrs || {})) {
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

export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/** Shows a message in an error element (data-error), or hides it when empty. */
export function showError(el, text) {
  setText(el, text || '');
  el.hidden = !text;
}

/** 5:03, 0:09.4 under ten seconds, 1:02:03 over an hour. */
export function formatClock(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) return `0:0${Math.floor(ms / 1000)}.${Math.floor((ms % 1000) / 100)}`;
  const total = Math.ceil(ms / 1000);
  const hours = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return hours ? `${hours}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** A short-lived note ("Copied") announced to screen readers too. */
export function toast(text) {
  let box = document.getElementById('toast');
  if (!box) {
    box = h('div', { id: 'toast', role: 'status', 'aria-live': 'polite' });
    document.body.appendChild(box);
  }
  box.textContent = text;
  box.classList.add('show');
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => box.classList.remove('show'), 1800);
}

/** True when a key press belongs to a text field, not to the page. */
export function typingIn(e) {
  const t = e.target;
  return t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
}

/** "White" / "Black" in the page's language. */
export const sideName = (c) => (c === 'w' || c === 'b' ? t(`side.${c}`) : '');
export const other = (c) => (c === 'w' ? 'b' : 'w');
