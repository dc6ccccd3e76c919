// The "New game" dialog: opponent, strength, colour, rule option, clock.

import { api } from './api.js';
import { h, showError } from './ui.js';

export function openNewGameDialog({ level = 3, onCreated, start = null }) {
  document.querySelector('dialog.new-game')?.remove();
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
  const startBtn = h('button.primary', { type: 'submit' }, 'Start');

  const form = h('form', { method: 'dialog' },
    h('h2', 'New game'),
    h('fieldset', h('legend', 'Opponent'),
      radio('mode', 'engine', 'The engine', true),
      radio('mode', 'friend', 'A friend (invite link)', false),
      radio('mode', 'local', 'Both sides on this device', false)),
    h('fieldset.engine-only', h('legend', 'Engine strength'),
      h('div.row', h('label', { for: 'ng-level' }, 'Level'), levelInput, levelOut),
      h('p.small', '1 is for beginners; 10 is full strength.')),
    h('fieldset.colour', h('legend', 'You play'),
      radio('color', 'white', 'White', true), radio('color', 'black', 'Black', false), radio('color', 'random', 'Random', false)),
    h('fieldset', h('legend', 'Rules'),
      h('label.choice', h('input', { type: 'checkbox', name: 'mate', id: 'ng-mate' }),
        h('span', 'Mate ends the game (no Phase 2, rule 5.4)'))),
    h('fieldset', h('legend', 'Clock'),
      h('label.choice', clockOn, h('span', 'Play with a clock')),
      h('div.row', h('label', { for: 'ng-min' }, 'Minutes'), minutes, h('label', { for: 'ng-inc' }, 'Increment (s)'), inc)),
    error,
    h('div.row.buttons', h('button', { type: 'button', value: 'cancel', onclick: () => dialog.close() }, 'Cancel'), startBtn));

  const dialog = h('dialog.new-game', { 'aria-label': 'New game' }, form);
  const sync = () => {
    const mode = form.elements.mode.value;
    form.querySelector('.engine-only').hidden = mode !== 'engine';
    form.querySelector('.colour').hidden = mode === 'local';
  };
  form.addEventListener('change', sync);
  sync();

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const mode = form.elements.mode.value;
    const body = { mode, rules: form.elements.mate.checked ? 'mate-ends-game' : 'default' };
    if (mode !== 'local') body.color = form.elements.color.value;
    if (mode === 'engine') body.level = Number(levelInput.value);
    if (start) body.start = start;
    if (clockOn.checked) {
      const m = Number(minutes.value);
      const i = Number(inc.value);
      if (!(m > 0) || !(i >= 0)) { showError(error, 'Give the clock a positive number of minutes and an increment of 0 or more seconds.'); return; }
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
      showError(error, err.message);
      startBtn.disabled = false;
    }
  });
  dialog.addEventListener('close', () => dialog.remove());
  document.body.appendChild(dialog);
  dialog.showModal();
  form.querySelector('input[name=mode]:checked').focus();
}
