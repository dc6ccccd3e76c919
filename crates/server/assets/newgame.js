// @ts-check
// The "New game" dialog: opponent, strength, colour, rule option, clock.

import { api } from './api.js';
import { h, showError } from './ui.js';
import { t } from './i18n.js';

/**
 * Opens the dialog; `onCreated` gets the server's answer to the new game.
 * @param {{level?: number, onCreated: (created: any) => void, start?: string | null}} options
 */
export function openNewGameDialog({ level = 3, onCreated, start = null }) {
  document.querySelector('dialog.new-game')?.remove();
  /** @param {string} name @param {string} value @param {string} label @param {boolean} checked */
  const radio = (name, value, label, checked) => h('label.choice',
    h('input', { type: 'radio', name, value, checked }), h('span', label));

  const levelInput = h('input', { type: 'range', min: 1, max: 10, step: 1, value: level, id: 'ng-level', 'aria-describedby': 'ng-level-out' });
  const levelOut = h('output', { id: 'ng-level-out', for: 'ng-level' }, String(level));
  levelInput.addEventListener('input', () => { levelOut.textContent = levelInput.value; });

  const clockOn = h('input', { type: 'checkbox', id: 'ng-clock' });
  const minutes = h('input', { type: 'number', id: 'ng-min', min: 1, max: 180, value: 10, step: 1, disabled: true });
  const inc = h('input', { type: 'number', id: 'ng-inc', min: 0, max: 60, value: 5, step: 1, disabled: true });
  clockOn.addEventListener('change', () => { minutes.disabled = inc.disabled = !clockOn.checked; });

  const error = h('div.error', { role: 'alert', hidden: true });
  const startBtn = h('button.primary', { type: 'submit' }, t('newgame.start'));

  const form = h('form', { method: 'dialog' },
    h('h2', t('newgame.title')),
    h('fieldset', h('legend', t('newgame.opponent')),
      radio('mode', 'engine', t('newgame.mode.engine'), true),
      radio('mode', 'friend', t('newgame.mode.friend'), false),
      radio('mode', 'local', t('newgame.mode.local'), false)),
    h('fieldset.engine-only', h('legend', t('newgame.strength')),
      h('div.row', h('label', { for: 'ng-level' }, t('newgame.level')), levelInput, levelOut),
      h('p.small', t('newgame.levelHint'))),
    h('fieldset.colour', h('legend', t('newgame.youPlay')),
      radio('color', 'white', t('newgame.color.white'), true), radio('color', 'black', t('newgame.color.black'), false),
      radio('color', 'random', t('newgame.color.random'), false)),
    h('fieldset', h('legend', t('newgame.rules')),
      h('label.choice', h('input', { type: 'checkbox', name: 'mate', id: 'ng-mate' }),
        h('span', t('newgame.mateEnds')))),
    h('fieldset', h('legend', t('newgame.clock')),
      h('label.choice', clockOn, h('span', t('newgame.clockOn'))),
      h('div.row', h('label', { for: 'ng-min' }, t('newgame.minutes')), minutes, h('label', { for: 'ng-inc' }, t('newgame.increment')), inc)),
    error,
    h('div.row.buttons', h('button', { type: 'button', value: 'cancel', onclick: () => dialog.close() }, t('common.cancel')), startBtn));

  const dialog = h('dialog.new-game', { 'aria-label': t('newgame.title') }, form);
  const sync = () => {
    const mode = form.elements.mode.value;
    form.querySelector('.engine-only').hidden = mode !== 'engine';
    form.querySelector('.colour').hidden = mode === 'local';
  };
  form.addEventListener('change', sync);
  sync();

  form.addEventListener('submit', async (/** @type {SubmitEvent} */ e) => {
    e.preventDefault();
    const mode = form.elements.mode.value;
    /** @type {{mode: string, rules: string, color?: string, level?: number, start?: string, clock?: {initial_s: number, increment_s: number}}} */
    const body = { mode, rules: form.elements.mate.checked ? 'mate-ends-game' : 'default' };
    if (mode !== 'local') body.color = form.elements.color.value;
    if (mode === 'engine') body.level = Number(levelInput.value);
    if (start) body.start = start;
    if (clockOn.checked) {
      const m = Number(minutes.value);
      const i = Number(inc.value);
      if (!(m > 0) || !(i >= 0)) { showError(error, t('newgame.clockError')); return; }
      body.clock = { initial_s: Math.round(m * 60), increment_s: Math.round(i) };
    }
    startBtn.disabled = true;
    showError(error, '');
    try {
      if (mode === 'engine') localStorage.setItem('legion:level', String(body.level));
      const created = await api.createGame(body);
      dialog.close();
      dialog.remove();
      onCreated(created);
    } catch (err) {
      showError(error, err instanceof Error ? err.message : String(err));
      startBtn.disabled = false;
    }
  });
  dialog.addEventListener('close', () => dialog.remove());
  document.body.appendChild(dialog);
  dialog.showModal();
  form.querySelector('input[name=mode]:checked').focus();
}
