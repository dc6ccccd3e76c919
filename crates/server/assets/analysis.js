// The analysis board (/analysis): any position, from an LFEN, a game record
// or the editor; moves by the rules for whichever side is to move; the
// engine's evaluation and best line.

import { api, copyText, ApiError } from './api.js';
import { Board } from './board.js';
import { INITIAL_LFEN, parseLfen, writeLfen, possibleCastling, isDark, rankOf } from './lfen.js';
import { pieceIcon } from './pieces.js';
import { h, setText, showError, toast, typingIn, sideName } from './ui.js';
import { MoveList, ICONS } from './movelist.js';
import { openNewGameDialog } from './newgame.js';
import { t, tServer, formatNumber } from './i18n.js';

export function mountAnalysis(root) {
  const page = new AnalysisPage(root);
  return () => page.destroy();
}

const squaresOf = (canonical) => (canonical || '').match(/[a-h][1-8]/g) || [];

class AnalysisPage {
  constructor(root) {
    const q = new URLSearchParams(location.search);
    this.rules = q.get('rules') === 'mate-ends-game' ? 'mate-ends-game' : 'default';
    this.start = q.get('lfen') || INITIAL_LFEN;
    this.line = []; // [{canonical, human, lfen, path, captured}]
    this.cursor = 0;
    this.views = new Map(); // LFEN -> the server's view of it
    this.engineOn = localStorage.getItem('legion:engine') !== 'off';
    this.editing = false;
    this.flipped = false;
    this.destroyed = false;
    this.build(root);
    this.onKey = (e) => this.key(e);
    document.addEventListener('keydown', this.onKey);
    this.show();
  }

  destroy() {
    this.destroyed = true;
    document.removeEventListener('keydown', this.onKey);
    this.analysis?.abort();
    clearTimeout(this.analyseTimer);
    clearTimeout(this.editTimer);
  }

  build(root) {
    const boardBox = h('div.board-box');
    this.board = new Board(boardBox, {
      label: t('analysis.boardLabel'),
      onMove: (m) => this.play(m),
      onAttempt: (sq) => this.explain(sq),
      onEdit: (sq) => this.editSquare(sq),
      onEditDrag: (from, to) => this.editDrag(from, to),
      editorPlacing: () => false,
    });
    this.evalBar = h('div.evalbar', { 'aria-hidden': 'true' }, h('div'));
    this.status = h('div.status', { 'data-status': '', 'data-turn': 'w', role: 'status', 'aria-live': 'polite' });
    this.error = h('div.error', { 'data-error': '', role: 'alert', hidden: true });
    this.phaseNote = h('div.note.phase', { hidden: true });

    // Engine panel.
    this.engineToggle = h('input', { type: 'checkbox', id: 'engine-on', checked: this.engineOn });
    this.engineToggle.addEventListener('change', () => {
      this.engineOn = this.engineToggle.checked;
      localStorage.setItem('legion:engine', this.engineOn ? 'on' : 'off');
      this.runEngine();
    });
    this.score = h('span.score', '–');
    this.depth = h('span.depth');
    this.pv = h('div.pv');
    const enginePanel = h('div.panel.engine-panel',
      h('div.row', h('label.switch', { for: 'engine-on' }, this.engineToggle, h('strong', t('analysis.engine'))),
        h('span.small', t('analysis.engineTime'))),
      h('div.eval', this.score, this.depth), this.pv);
    this.enginePanel = enginePanel;

    // Moves panel.
    this.moveList = new MoveList((ply) => this.goTo(ply));
    const nav = h('div.nav-buttons', { role: 'group', 'aria-label': t('game.nav.label') },
      navBtn(ICONS.first, t('analysis.nav.first'), () => this.goTo(0)),
      navBtn(ICONS.prev, t('game.nav.prev'), () => this.goTo(this.cursor - 1)),
      navBtn(ICONS.next, t('game.nav.next'), () => this.goTo(this.cursor + 1)),
      navBtn(ICONS.last, t('analysis.nav.last'), () => this.goTo(this.line.length)));

    // Position and record input.
    this.lfenInput = h('input.lfen-field', { type: 'text', id: 'lfen-input', spellcheck: 'false', autocomplete: 'off', 'aria-label': t('analysis.lfenLabel') });
    const lfenForm = h('form.copy-row', { onsubmit: (e) => { e.preventDefault(); this.loadLfen(this.lfenInput.value); } },
      this.lfenInput, h('button', { type: 'submit' }, t('analysis.load')),
      h('button', { type: 'button', onclick: async () => toast((await copyText(this.lfen())) ? t('common.lfenCopied') : t('common.copyFailed')) }, t('common.copy')));
    this.recordInput = h('textarea', { id: 'record-input', rows: 4, placeholder: '[White "..."]\n\n1. c3-d4 f6-e5 2. d4:f6 ...', 'aria-label': t('analysis.record') });
    const recordForm = h('form', { onsubmit: (e) => { e.preventDefault(); this.loadRecord(); } },
      h('label', { for: 'record-input' }, h('strong', t('analysis.record')), h('span.small', ' — ' + t('analysis.recordHint'))),
      this.recordInput, h('div.row', h('button', { type: 'submit' }, t('analysis.loadRecord'))));

    this.rulesToggle = h('input', { type: 'checkbox', id: 'rules-mate', checked: this.rules === 'mate-ends-game' });
    this.rulesToggle.addEventListener('change', () => {
      this.rules = this.rulesToggle.checked ? 'mate-ends-game' : 'default';
      this.views.clear();
      this.show();
    });

    this.playPanel = h('div.play-panel',
      h('div.panel.moves-panel', this.moveList.el, nav),
      h('div.panel',
        h('label', { for: 'lfen-input' }, h('strong', t('analysis.position'))), lfenForm,
        recordForm,
        h('label.choice', this.rulesToggle, h('span', t('analysis.mateEnds'))),
        h('div.row',
          h('button', { type: 'button', onclick: () => this.startEditor() }, t('analysis.setUp')),
          h('button', { type: 'button', onclick: () => this.loadLfen(INITIAL_LFEN) }, t('analysis.initial')),
          h('button', { type: 'button', onclick: () => { this.flipped = !this.flipped; this.board.setFlipped(this.flipped); } }, t('game.btn.flip')),
          h('button', { type: 'button', onclick: () => this.playFromHere() }, t('analysis.playFromHere')))));

    this.editPanel = this.buildEditor();
    this.editPanel.hidden = true;

    root.append(h('div.analysis-layout',
      h('section.board-col', { 'aria-label': t('game.region.board') }, this.evalBar, boardBox),
      h('aside.side-col', { 'aria-label': t('analysis.region') },
        h('div.panel', this.status, this.phaseNote, this.error), enginePanel, this.playPanel, this.editPanel)));
  }

  // ---- positions -----------------------------------------------------------

  lfen() {
    return this.cursor === 0 ? this.start : this.line[this.cursor - 1].lfen;
  }

  async view(lfen) {
    const key = this.rules + ' ' + lfen;
    if (!this.views.has(key)) {
      const p = api.position(lfen, this.rules);
      this.views.set(key, p);
      p.catch(() => this.views.delete(key));
    }
    return this.views.get(key);
  }

  /** Draws the current position at once from its LFEN, then with the server's view. */
  async show() {
    if (this.editing) return;
    const lfen = this.lfen();
    this.lfenInput.value = lfen;
    const q = new URLSearchParams({ lfen });
    if (this.rules !== 'default') q.set('rules', this.rules);
    history.replaceState(null, '', `/analysis?${q}`);
    const last = this.cursor ? this.line[this.cursor - 1] : null;
    let pos;
    try { pos = parseLfen(lfen); } catch (e) { this.showError(e.message); pos = { board: {}, turn: 'w' }; }
    const base = { board: pos.board, turn: pos.turn, lastPath: last ? last.path : [], lastCaptured: last ? last.captured || [] : [] };
    this.board.set({ ...base, legal: [], movable: false });
    this.moveList.set(this.line, this.cursor, this.start);
    // data-turn changes only once the server's legal moves are in: until
    // then the board takes no move.
    this.current = null;
    let v;
    try {
      v = await this.view(lfen);
    } catch (e) {
      if (lfen !== this.lfen() || this.destroyed) return;
      this.showError(e.message);
      setText(this.status, t('analysis.invalid'));
      return;
    }
    if (lfen !== this.lfen() || this.destroyed || this.editing) return;
    this.current = v;
    const turn = v.turn === 'b' ? 'b' : 'w';
    const check = v.check ? Object.entries(v.board || {}).find(([, o]) => o.piece === turn + 'K')?.[0] : null;
    this.board.set({
      ...base, board: v.board || pos.board, turn, legal: v.outcome ? [] : v.legal || [], movable: !v.outcome,
      checkSquare: check, mustCapture: v.must_capture || [], arrows: this.bestArrow(lfen),
    });
    this.status.dataset.turn = turn;
    let text = v.outcome
      ? t('game.status.over', { result: v.outcome.result, reason: tServer(v.outcome.reason_i18n, v.outcome.reason) || t('game.status.overNoReason') })
      : t('game.status.toMove', { side: turn });
    if (!v.outcome && v.check) text += ' ' + t('game.status.check', { side: turn });
    if (!v.outcome && (v.must_capture || []).length) text += ' ' + t('analysis.mustCapture');
    setText(this.status, text);
    const gone = ['w', 'b'].filter((c) => v.kings && v.kings[c] === false);
    this.phaseNote.hidden = !gone.length;
    setText(this.phaseNote, gone.length === 2 ? t('analysis.phase.bothGone')
      : gone.length ? t('analysis.phase.oneGone', { side: gone[0] }) : '');
    this.runEngine();
  }

  goTo(ply) {
    ply = Math.max(0, Math.min(this.line.length, ply));
    if (ply === this.cursor) return;
    this.cursor = ply;
    this.showError('');
    this.show();
  }

  /**
   * Plays a legal move of the server's view: the server gives the position
   * after it (`lfen`, with the King removal of 5.1 when the move mates), so
   * the page never applies the rules itself.
   */
  async play(move) {
    this.showError('');
    const before = this.lfen();
    if (!move.lfen) {
      // Only the server's moves carry their result; ask it about any other.
      try {
        const r = await api.explain(before, this.rules, move.path && move.path.length ? move.path : [move.from, move.to]);
        if (!r.legal || !r.move || !r.move.lfen) { this.showError(r.error || t('analysis.illegal')); return; }
        move = r.move;
      } catch (e) {
        this.showError(e.message);
        return;
      }
    }
    if (this.destroyed || before !== this.lfen()) return;
    this.line = this.line.slice(0, this.cursor);
    this.line.push({ canonical: move.canonical, human: move.human, lfen: move.lfen, path: move.path || squaresOf(move.canonical), captured: move.captured || [] });
    this.cursor = this.line.length;
    this.show();
  }

  async explain(squares) {
    try {
      const r = await api.explain(this.lfen(), this.rules, squares);
      if (r && r.legal && r.move) {
        const legal = (this.current && this.current.legal) || [];
        this.play(legal.find((m) => m.canonical === r.move.canonical) || r.move);
      } else if (r) {
        this.showError(r.error || t('analysis.illegal'));
      }
    } catch (e) {
      this.showError(e.message);
    }
  }

  async loadLfen(text) {
    text = String(text || '').trim();
    if (!text) return;
    try {
      const v = await api.position(text, this.rules);
      this.start = v.lfen || text;
      this.line = [];
      this.cursor = 0;
      this.showError('');
      this.show();
    } catch (e) {
      this.showError(e.message);
    }
  }

  async loadRecord() {
    const text = this.recordInput.value;
    if (!text.trim()) { this.showError(t('analysis.recordEmpty')); return; }
    try {
      const r = await api.parseRecord(text);
      this.rules = r.rules === 'mate-ends-game' ? 'mate-ends-game' : 'default';
      this.rulesToggle.checked = this.rules === 'mate-ends-game';
      this.views.clear();
      this.start = r.start || INITIAL_LFEN;
      this.line = (r.moves || []).map((m) => ({ canonical: m.canonical, human: m.human, lfen: m.lfen, path: squaresOf(m.canonical), captured: [] }));
      this.cursor = 0;
      this.showError('');
      const tags = r.tags || {};
      const who = tags.White || tags.Black ? `${tags.White || '?'} – ${tags.Black || '?'}` : t('analysis.recordGame');
      toast(t('analysis.recordLoaded', { game: who, moves: this.line.length, result: r.result || '*' }));
      this.show();
    } catch (e) {
      this.showError(e.message);
    }
  }

  playFromHere() {
    openNewGameDialog({
      level: Number(localStorage.getItem('legion:level')) || 3,
      start: this.lfen(),
      onCreated: (created) => {
        localStorage.setItem(`legion:seat:${created.id}`, created.token);
        if (created.invite) localStorage.setItem(`legion:invite:${created.id}`, created.invite);
        location.href = `/g/${created.id}`;
      },
    });
  }

  showError(text) {
    showError(this.error, text);
  }

  // ---- engine ----------------------------------------------------------------

  runEngine() {
    this.analysis?.abort();
    clearTimeout(this.analyseTimer);
    const lfen = this.lfen();
    this.best = null;
    if (!this.engineOn || this.editing) {
      setText(this.score, this.editing ? '–' : t('analysis.engineOff'));
      setText(this.depth, '');
      this.pv.replaceChildren();
      this.setBar(0);
      return;
    }
    if (this.current && this.current.outcome) {
      setText(this.score, this.current.outcome.result);
      setText(this.depth, '');
      this.pv.replaceChildren();
      return;
    }
    setText(this.depth, t('analysis.thinking'));
    // Wait a moment: stepping quickly through a game must not queue searches.
    this.analyseTimer = setTimeout(async () => {
      const ctl = new AbortController();
      this.analysis = ctl;
      try {
        const r = await api.analyse(lfen, this.rules, 1000, ctl.signal);
        if (ctl.signal.aborted || lfen !== this.lfen()) return;
        this.showEval(lfen, r);
      } catch (e) {
        if (e && e.name === 'AbortError') return;
        setText(this.score, '–');
        setText(this.depth, e instanceof ApiError && e.status === 503 ? t('analysis.engineBusy') : e.message);
        if (e instanceof ApiError && e.status === 503) this.analyseTimer = setTimeout(() => this.runEngine(), 2000);
      }
    }, 250);
  }

  showEval(lfen, r) {
    const turn = lfen.split(/\s+/)[1] === 'b' ? 'b' : 'w';
    const sign = turn === 'w' ? 1 : -1; // scores are for the side to move
    const [kind, n] = String(r.score || 'cp 0').split(/\s+/);
    const num = Number(n) || 0;
    let text;
    let bar;
    if (kind === 'win' || kind === 'loss') {
      const whiteWins = (kind === 'win') === (sign === 1);
      text = t('analysis.winsIn', { side: whiteWins ? 'w' : 'b', moves: num });
      bar = whiteWins ? 1 : -1;
    } else {
      const v = (num * sign) / 100;
      text = `${v > 0 ? '+' : ''}${v.toFixed(2)}`;
      bar = Math.max(-1, Math.min(1, v / 5));
    }
    setText(this.score, text);
    setText(this.depth, t('analysis.depth', { depth: r.depth ?? '?', nodes: formatNumber(r.nodes || 0) }));
    this.setBar(bar);
    const fields = lfen.split(/\s+/);
    let number = Number(fields[4]) || 1;
    let side = turn;
    const parts = [];
    for (const m of r.pv || []) {
      if (side === 'w') parts.push(`${number}.`);
      else if (!parts.length) parts.push(`${number}…`);
      parts.push(m.human || m.canonical);
      if (side === 'b') number++;
      side = side === 'w' ? 'b' : 'w';
    }
    this.pv.replaceChildren(h('span.small', t('analysis.bestLine') + ' '), parts.join(' ') || (r.best ? r.best.human : '—'));
    this.best = r.best ? { lfen, path: squaresOf(r.best.canonical) } : null;
    if (this.current && lfen === this.lfen()) this.board.set({ ...this.board.view, arrows: this.bestArrow(lfen) });
  }

  bestArrow(lfen) {
    return this.best && this.best.lfen === lfen && this.best.path.length >= 2 ? [{ path: this.best.path, color: 'blue' }] : [];
  }

  setBar(v) {
    this.evalBar.firstChild.style.width = `${50 + v * 50}%`;
  }

  // ---- editor ----------------------------------------------------------------

  buildEditor() {
    this.tool = 'wM';
    this.paletteButtons = [];
    const btn = (code, prisoner, label) => {
      const b = h('button', { type: 'button', 'aria-label': label, title: label, 'aria-pressed': 'false', html: pieceIcon(code, prisoner, 36) });
      const tool = prisoner ? `${code}+${prisoner}` : code;
      b.dataset.tool = tool;
      b.addEventListener('click', () => this.setTool(tool));
      this.paletteButtons.push(b);
      return b;
    };
    const palette = h('div');
    for (const c of ['w', 'b']) {
      const o = c === 'w' ? 'b' : 'w';
      palette.append(h('div.palette-title', t(c === 'w' ? 'editor.piecesWhite' : 'editor.piecesBlack')),
        h('div.palette', [...'KQRBNMT'].map((r) => btn(c + r, null, t(`piece.${c}${r}`)))));
      palette.append(h('div.palette-title', t(c === 'w' ? 'editor.constructsWhite' : 'editor.constructsBlack')),
        h('div.palette', [...'QRBNK'].flatMap((r) => ['M', 'T'].map((p) => btn(c + r, o + p, t('board.construct', { piece: c + r, prisoner: o + p }))))));
    }
    const eraser = h('button.wide', { type: 'button', 'aria-pressed': 'false' }, t('editor.eraser'));
    eraser.dataset.tool = 'erase';
    eraser.addEventListener('click', () => this.setTool('erase'));
    this.paletteButtons.push(eraser);
    palette.append(h('div.palette', eraser));

    this.turnSelect = h('select', { id: 'ed-turn' }, h('option', { value: 'w' }, sideName('w')), h('option', { value: 'b' }, sideName('b')));
    this.turnSelect.addEventListener('change', () => { this.edit.turn = this.turnSelect.value; this.editChanged(); });
    this.castleBoxes = {};
    const castles = [['K', 'w', 'O-O'], ['Q', 'w', 'O-O-O'], ['k', 'b', 'O-O'], ['q', 'b', 'O-O-O']].map(([r, side, castle]) => {
      const label = t('editor.castle', { side, castle });
      const box = h('input', { type: 'checkbox', id: `ed-c-${r}` });
      box.addEventListener('change', () => this.editChanged());
      this.castleBoxes[r] = box;
      return h('label.choice', box, h('span', label));
    });
    this.editStatus = h('div.small', { role: 'status' });
    this.editDone = h('button.primary', { type: 'button', onclick: () => this.finishEditor() }, t('editor.done'));
    return h('div.panel.editor',
      h('h2.editor-title', t('analysis.setUp')),
      h('p.small', t('editor.help')),
      palette,
      h('div.row', h('label', { for: 'ed-turn' }, t('editor.turn')), this.turnSelect),
      h('fieldset', h('legend', t('editor.castling')), ...castles),
      h('div.row',
        h('button', { type: 'button', onclick: () => this.setEdit({}) }, t('editor.clear')),
        h('button', { type: 'button', onclick: () => this.setEdit(parseLfen(INITIAL_LFEN).board, 'KQkq', 'w') }, t('analysis.initial'))),
      this.editStatus,
      h('div.row', h('button', { type: 'button', onclick: () => this.cancelEditor() }, t('common.cancel')), this.editDone));
  }

  setTool(tool) {
    this.tool = tool;
    for (const b of this.paletteButtons) b.setAttribute('aria-pressed', String(b.dataset.tool === tool));
  }

  startEditor() {
    let pos;
    try { pos = parseLfen(this.lfen()); } catch { pos = parseLfen(INITIAL_LFEN); }
    this.editing = true;
    this.analysis?.abort();
    this.playPanel.hidden = true;
    this.enginePanel.hidden = true;
    this.editPanel.hidden = false;
    this.edit = { board: { ...pos.board }, turn: pos.turn, castling: pos.castling };
    this.turnSelect.value = pos.turn;
    for (const [r, box] of Object.entries(this.castleBoxes)) box.checked = pos.castling.includes(r);
    this.setTool(this.tool);
    this.editChanged();
  }

  setEdit(board, castling = '', turn) {
    this.edit.board = { ...board };
    if (turn) { this.edit.turn = turn; this.turnSelect.value = turn; }
    for (const [r, box] of Object.entries(this.castleBoxes)) box.checked = castling.includes(r);
    this.editChanged();
  }

  editSquare(sq) {
    const b = this.edit.board;
    if (this.tool === 'erase') { delete b[sq]; this.editChanged(); return; }
    const [piece, prisoner] = this.tool.split('+');
    const cur = b[sq];
    if (cur && cur.piece === piece && (cur.prisoner || '') === (prisoner || '')) delete b[sq];
    else b[sq] = prisoner ? { piece, prisoner } : { piece };
    // Say at once why a Legion piece cannot go here (the server would too).
    if (!prisoner && (piece[1] === 'M' || piece[1] === 'T') && !isDark(sq)) {
      this.showError(t('editor.error.light', { square: sq }));
      delete b[sq];
      this.editChanged(false);
      return;
    }
    if (!prisoner && piece[1] === 'M' && rankOf(sq) === (piece[0] === 'w' ? 7 : 0)) {
      this.showError(t('editor.error.farRank', { square: sq, side: piece[0] }));
      delete b[sq];
      this.editChanged(false);
      return;
    }
    this.editChanged();
  }

  editDrag(from, to) {
    const b = this.edit.board;
    const o = b[from];
    if (!o) return;
    delete b[from];
    if (to) b[to] = o; // dropped off the board: removed
    this.editChanged();
  }

  editLfen() {
    let castling = Object.entries(this.castleBoxes).filter(([, box]) => box.checked).map(([r]) => r).join('');
    return writeLfen({ board: this.edit.board, turn: this.edit.turn, castling, halfmove: 0, fullmove: 1 });
  }

  editChanged(clearError = true) {
    if (clearError) this.showError('');
    // Rights that the placement cannot back are greyed out.
    const possible = possibleCastling(this.edit.board);
    for (const [r, box] of Object.entries(this.castleBoxes)) {
      box.disabled = !possible.includes(r);
      if (box.disabled) box.checked = false;
    }
    const lfen = this.editLfen();
    this.lfenInput.value = lfen;
    this.board.set({ board: this.edit.board, turn: this.edit.turn, legal: [], movable: false, editor: true });
    this.status.dataset.turn = this.edit.turn;
    setText(this.status, t('editor.status'));
    setText(this.editStatus, t('editor.checking'));
    clearTimeout(this.editTimer);
    // Problems the page can see itself are named without asking the server.
    const local = placementProblem(this.edit.board);
    if (local) {
      setText(this.editStatus, t('editor.invalid'));
      this.showError(local);
      this.editDone.disabled = true;
      return;
    }
    this.editTimer = setTimeout(async () => {
      try {
        await api.position(lfen, this.rules);
        if (this.editLfen() !== lfen) return;
        setText(this.editStatus, t('editor.valid', { lfen }));
        this.editDone.disabled = false;
        if (clearError) this.showError('');
      } catch (e) {
        if (this.editLfen() !== lfen) return;
        setText(this.editStatus, t('editor.invalid'));
        this.showError(e.message);
      }
    }, 200);
  }

  async finishEditor() {
    const lfen = this.editLfen();
    try {
      await api.position(lfen, this.rules);
    } catch (e) {
      this.showError(e.message);
      return;
    }
    this.closeEditor();
    this.start = lfen;
    this.line = [];
    this.cursor = 0;
    this.show();
  }

  cancelEditor() {
    this.closeEditor();
    this.show();
  }

  closeEditor() {
    this.editing = false;
    this.playPanel.hidden = false;
    this.enginePanel.hidden = false;
    this.editPanel.hidden = true;
    this.showError('');
  }

  key(e) {
    if (typingIn(e) || e.altKey || e.ctrlKey || e.metaKey || this.editing) return;
    if (document.querySelector('dialog[open]')) return;
    if (e.key === 'ArrowLeft') this.goTo(this.cursor - 1);
    else if (e.key === 'ArrowRight') this.goTo(this.cursor + 1);
    else if (e.key === 'Home') this.goTo(0);
    else if (e.key === 'End') this.goTo(this.line.length);
    else if (e.key === 'f') { this.flipped = !this.flipped; this.board.setFlipped(this.flipped); }
    else return;
    e.preventDefault();
  }
}

function navBtn(icon, label, fn) {
  return h('button.nav', { type: 'button', 'aria-label': label, title: label, onclick: fn, html: icon });
}

/** What RULES 6.2 rejects that the placement alone shows (the rest is the server's). */
function placementProblem(board) {
  const kings = { w: 0, b: 0 };
  for (const [sq, o] of Object.entries(board)) {
    const [c, r] = o.piece;
    if (r === 'K') kings[c]++;
    if (o.prisoner) continue;
    if ((r === 'M' || r === 'T') && !isDark(sq)) return t('editor.problem.light', { piece: o.piece, square: sq });
    if (r === 'M' && rankOf(sq) === (c === 'w' ? 7 : 0)) return t('editor.problem.farRank', { piece: o.piece, square: sq });
  }
  for (const c of ['w', 'b']) if (kings[c] > 1) return t('editor.problem.kings', { side: c });
  return null;
}
