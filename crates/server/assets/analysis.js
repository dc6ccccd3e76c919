// @ts-check
// The analysis board (/analysis): any position, from an LFEN, a game record,
// a game of the site (?game=<id>, at its end or at ?ply=N) or the editor.
// Every position reached is kept in a move tree (movetree.js): playing a
// move from the middle of a line starts a variation and loses nothing.
// Moves are the server's: each legal move of /api/position carries the
// position after it, so the page never applies the rules itself. The
// engine's evaluation and best line (or lines) for the position shown; for a
// finished game, the computer analysis of the whole game (gamereview.js).
// A study (study.js) is this board with hooks: it is told what is shown,
// when the tree changes and what was drawn, and swaps its chapters' trees.

import { api, request, copyText, ApiError } from './api.js';
import { Board } from './board.js';
import { INITIAL_LFEN, parseLfen, writeLfen, possibleCastling, isDark, rankOf, lfenTurnAndNumber } from './lfen.js';
import { pieceIcon } from './pieces.js';
import { h, setText, showError, toast, typingIn, sideName, touchScreen } from './ui.js';
import { openNewGameDialog } from './newgame.js';
import { t, tServer, formatNumber } from './i18n.js';
import { MoveTree, TreeView } from './movetree.js';
import { NAV_PATHS as NAV_ICONS, pathIcon } from './svg.js';
import { GameReview } from './gamereview.js';
import { EndgamePanel } from './endgame.js';
import { showMove } from './notation.js';
import { chapterOf, createStudy } from './study-data.js';

/** @param {HTMLElement} root */
export function mountAnalysis(root) {
  const page = new AnalysisPage(root);
  return () => page.destroy();
}

/**
 * What a study is told by the board it holds.
 * @typedef {{
 *   onShow: (node: TreeNode) => void, onChange: () => void,
 *   onDraw: (shapes: import('./board-draw.js').Shape[]) => void, onFlip: (flipped: boolean) => void,
 * }} StudyHooks
 */

/** Lines of the engine shown at most (when the server sends several). */
const MAX_LINES = 3;
const GAME_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * @typedef {import('./movetree.js').TreeNode} TreeNode
 * @typedef {import('./lfen.js').BoardMap} BoardMap
 * @typedef {{id: string, status: string, moves: any[], nodes: TreeNode[]}} AnalysedGame
 * @typedef {{score?: string, pv?: string[], nodes?: number}} EngineLine
 */

/** A part of the page not made yet (typed as any part). @type {any} */
const UNSET = null;

/** @param {unknown} e */
const messageOf = (e) => (e instanceof Error ? e.message : String(e));

export class AnalysisPage {
  // The page's parts, made by build() and buildEditor() from the constructor
  // (UNSET until then: nothing reads them before).
  /** @type {Board} */ board = UNSET;
  /** @type {HTMLElement} */ evalBar = UNSET;
  /** @type {HTMLElement} */ status = UNSET;
  /** @type {HTMLElement} */ error = UNSET;
  /** @type {HTMLElement} */ phaseNote = UNSET;
  /** @type {HTMLElement} */ gameTitle = UNSET;
  /** @type {HTMLElement} */ gameResult = UNSET;
  /** @type {HTMLAnchorElement} */ gameLink = UNSET;
  /** @type {HTMLElement} */ gamePanel = UNSET;
  /** @type {HTMLInputElement} */ engineToggle = UNSET;
  /** @type {HTMLElement} */ score = UNSET;
  /** @type {HTMLElement} */ depth = UNSET;
  /** @type {HTMLElement} */ pv = UNSET;
  /** @type {HTMLElement} */ enginePanel = UNSET;
  /** @type {EndgamePanel} */ endgame = UNSET;
  /** @type {TreeView} */ treeView = UNSET;
  /** @type {HTMLElement} */ treeActions = UNSET;
  /** @type {HTMLElement} */ judgementNote = UNSET;
  /** @type {HTMLElement} */ movesPanel = UNSET;
  /** @type {GameReview} */ review = UNSET;
  /** @type {HTMLInputElement} */ lfenInput = UNSET;
  /** @type {HTMLTextAreaElement} */ recordInput = UNSET;
  /** @type {HTMLInputElement} */ rulesToggle = UNSET;
  /** @type {HTMLElement} */ playPanel = UNSET;
  /** @type {HTMLElement} */ editPanel = UNSET;
  /** @type {string} */ tool = 'wM';
  /** @type {HTMLElement[]} */ paletteButtons = [];
  /** @type {HTMLSelectElement} */ turnSelect = UNSET;
  /** @type {Record<string, HTMLInputElement>} */ castleBoxes = {};
  /** @type {HTMLElement} */ editStatus = UNSET;
  /** @type {HTMLButtonElement} */ editDone = UNSET;
  /** @type {{board: BoardMap, turn: string, castling: string}} the position being set up */
  edit = { board: {}, turn: 'w', castling: '' };
  /** @type {TreeNode | null} the node drawn last */
  shown = null;
  /** @type {any} the server's view of the position shown, once it is in */
  current = null;
  /** @type {AbortController | null} */
  analysis = null;
  /** @type {{lfen: string, paths: string[][]} | null} the engine's lines' first moves */
  best = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  analyseTimer = undefined;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  editTimer = undefined;

  /** @param {HTMLElement} root @param {StudyHooks | null} [study] a study's hooks: its board, not the address's */
  constructor(root, study = null) {
    /** @type {StudyHooks | null} */
    this.study = study;
    const q = new URLSearchParams(study ? '' : location.search);
    this.rules = q.get('rules') === 'mate-ends-game' ? 'mate-ends-game' : 'default';
    this.tree = new MoveTree(q.get('lfen') || INITIAL_LFEN);
    this.node = this.tree.root;
    /** @type {AnalysedGame | null} the game analysed: its moves and their nodes [root, node of ply 1, ...] */
    this.game = null;
    /** @type {{node: TreeNode, text: string} | null} the result written after the main line's last move */
    this.result = null;
    /** @type {Map<string, Promise<any>>} rules + LFEN -> the server's view of it */
    this.views = new Map();
    /** @type {Map<string, any>} rules + LFEN -> the engine's answer */
    this.evals = new Map();
    this.engineOn = localStorage.getItem('legion:engine') !== 'off';
    this.editing = false;
    this.flipped = false;
    this.destroyed = false;
    this.build(root);
    this.onKey = (/** @type {KeyboardEvent} */ e) => this.key(e);
    document.addEventListener('keydown', this.onKey);
    const id = q.get('game');
    if (id && GAME_ID.test(id)) this.loadGame(id, q.get('ply'));
    else if (!study) this.refresh();
  }

  destroy() {
    this.destroyed = true;
    document.removeEventListener('keydown', this.onKey);
    this.analysis?.abort();
    this.treeView.destroy();
    this.review.destroy();
    clearTimeout(this.analyseTimer);
    clearTimeout(this.editTimer);
  }

  /** @param {HTMLElement} root */
  build(root) {
    const boardBox = h('div.board-box');
    this.board = new Board(boardBox, {
      label: t('analysis.boardLabel'),
      onMove: (m) => this.play(m),
      onAttempt: (sq) => this.explain(sq),
      onEdit: (sq) => this.editSquare(sq),
      onEditDrag: (from, to) => this.editDrag(from, to),
      onDraw: (shapes) => this.study?.onDraw(shapes),
      keepDrawings: !!this.study,
    });
    this.evalBar = h('div.evalbar', { 'aria-hidden': 'true' }, h('div'));
    this.status = h('div.status', { 'data-status': '', 'data-turn': 'w', role: 'status', 'aria-live': 'polite' });
    this.error = h('div.error', { 'data-error': '', role: 'alert', hidden: true });
    this.phaseNote = h('div.note.phase', { hidden: true });

    // The game this analysis comes from (?game=).
    this.gameTitle = h('strong');
    this.gameResult = h('div.small', { 'data-game-result': '' });
    this.gameLink = h('a', { href: '/' }, t('analysis.game.back'));
    this.gamePanel = h('div.panel.game-panel', { hidden: true }, h('div.row.game-head', this.gameTitle, this.gameLink), this.gameResult);

    // Engine panel.
    this.engineToggle = h('input', { type: 'checkbox', id: 'engine-on', checked: this.engineOn });
    this.engineToggle.addEventListener('change', () => {
      this.engineOn = this.engineToggle.checked;
      localStorage.setItem('legion:engine', this.engineOn ? 'on' : 'off');
      this.runEngine();
    });
    this.score = h('span.score', '–');
    this.depth = h('span.depth');
    this.pv = h('div.pv', { 'data-engine-lines': '' });
    const enginePanel = h('div.panel.engine-panel',
      h('div.row', h('label.switch', { for: 'engine-on' }, this.engineToggle, h('strong', t('analysis.engine'))),
        h('span.small', t('analysis.engineTime'))),
      h('div.eval', this.score, this.depth), this.pv);
    this.enginePanel = enginePanel;
    // The exact value from the server's solved endings, when it has them.
    this.endgame = new EndgamePanel({ onPlay: (canonical) => this.playLine(this.node, [canonical]) });

    // The move tree, its navigation and what may be done with the move shown.
    this.treeView = new TreeView({
      onPick: (node) => this.go(node),
      onAction: (action, node) => this.act(action, node),
      annotate: (node) => this.judgement(node),
      footer: () => this.resultLine(),
    });
    const nav = h('div.nav-buttons', { role: 'group', 'aria-label': t('game.nav.label') },
      navBtn(NAV_ICONS.first, t('analysis.nav.first'), () => this.go(this.tree.root)),
      navBtn(NAV_ICONS.prev, t('game.nav.prev'), () => this.go(this.node.parent)),
      navBtn(NAV_ICONS.next, t('game.nav.next'), () => this.go(this.node.children[0])),
      navBtn(NAV_ICONS.last, t('analysis.nav.last'), () => this.go(this.tree.end(this.node))));
    this.treeActions = h('div.tree-actions', { role: 'group', 'aria-label': t('analysis.tree.actions') });
    this.judgementNote = h('div.note.judgement', { hidden: true, 'data-judgement': '' });
    this.movesPanel = h('div.panel.moves-panel', this.treeView.el, nav, this.treeActions, this.judgementNote,
      h('p.small.tree-help', t(touchScreen() ? 'analysis.tree.helpTouch' : 'analysis.tree.help')));

    // The computer analysis of a whole game.
    this.review = new GameReview({
      onPick: (ply) => this.goToGamePly(ply),
      onReport: () => this.refresh(),
      moveName: (ply) => this.gameMoveName(ply),
      sideOf: (ply) => (this.tree.moveNumber(ply).white ? 'w' : 'b'),
    });

    // Position and record input.
    this.lfenInput = h('input.lfen-field', { type: 'text', id: 'lfen-input', spellcheck: 'false', autocomplete: 'off', 'aria-label': t('analysis.lfenLabel') });
    const lfenForm = h('form.copy-row', { onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); this.loadLfen(this.lfenInput.value); } },
      this.lfenInput, h('button', { type: 'submit' }, t('analysis.load')),
      h('button', { type: 'button', onclick: async () => toast((await copyText(this.lfen())) ? t('common.lfenCopied') : t('common.copyFailed')) }, t('common.copy')));
    this.recordInput = h('textarea', { id: 'record-input', rows: 4, placeholder: '[White "..."]\n\n1. c3-d4 f6-e5 2. d4:f6 ...', 'aria-label': t('analysis.record') });
    const recordForm = h('form', { onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); this.loadRecord(); } },
      h('label', { for: 'record-input' }, h('strong', t('analysis.record')), h('span.small', ' — ' + t('analysis.recordHint'))),
      this.recordInput, h('div.row', h('button', { type: 'submit' }, t('analysis.loadRecord'))));

    this.rulesToggle = h('input', { type: 'checkbox', id: 'rules-mate', checked: this.rules === 'mate-ends-game' });
    this.rulesToggle.addEventListener('change', () => {
      this.rules = this.rulesToggle.checked ? 'mate-ends-game' : 'default';
      this.show();
    });

    this.playPanel = h('div.play-panel',
      this.movesPanel,
      h('div.panel',
        h('label', { for: 'lfen-input' }, h('strong', t('analysis.position'))), lfenForm,
        recordForm,
        h('label.choice', this.rulesToggle, h('span', t('analysis.mateEnds'))),
        h('div.row',
          h('button', { type: 'button', onclick: () => this.startEditor() }, t('analysis.setUp')),
          h('button', { type: 'button', onclick: () => this.loadLfen(INITIAL_LFEN) }, t('analysis.initial')),
          h('button', { type: 'button', onclick: () => this.flip() }, t('game.btn.flip')),
          h('button', { type: 'button', onclick: () => this.playFromHere() }, t('analysis.playFromHere')),
          h('button', { type: 'button', 'data-save-study': '', onclick: () => this.saveAsStudy() }, t('study.saveAs')))));
    // A study has its own chapters: no position to load, no game of the site.
    if (this.study) {
      const positionPanel = /** @type {HTMLElement | null} */ (this.playPanel.lastElementChild);
      if (positionPanel) positionPanel.hidden = true;
    }

    this.editPanel = this.buildEditor();
    this.editPanel.hidden = true;

    root.append(h('div.analysis-layout',
      h('section.board-col', { 'aria-label': t('game.region.board') }, this.evalBar, boardBox),
      h('aside.side-col', { 'aria-label': t('analysis.region') },
        h('div.panel', this.status, this.phaseNote, this.error), this.gamePanel, enginePanel, this.endgame.el, this.playPanel, this.editPanel),
      this.review.el));
  }

  // ---- positions -----------------------------------------------------------

  lfen() {
    return this.node.lfen;
  }

  /** @param {string} lfen @returns {Promise<any>} */
  async view(lfen) {
    const key = this.rules + ' ' + lfen;
    if (!this.views.has(key)) {
      const p = api.position(lfen, this.rules);
      this.views.set(key, p);
      p.catch(() => this.views.delete(key));
    }
    return this.views.get(key);
  }

  /** Redraws the move tree (its shape changed), then the position shown. */
  refresh() {
    this.treeView.render(this.tree, this.node);
    this.show();
  }

  /** Shows `node` (a node of the tree). */
  /** @param {TreeNode | null | undefined} node */
  go(node) {
    if (!node || node === this.node || !this.tree.get(node.id)) return;
    this.node = node;
    this.showError('');
    this.show();
  }

  /** Draws the current position at once from its LFEN, then with the server's view. */
  async show() {
    if (this.editing) return;
    const node = this.node;
    const lfen = node.lfen;
    this.lfenInput.value = lfen;
    this.writeUrl();
    this.treeView.setCurrent(node);
    this.review.setPly(this.game ? this.gamePly(node) : null, lfen, this.rules);
    this.endgame.show(lfen, this.rules);
    this.showTreeActions();
    this.showJudgement();
    const last = node.move;
    let pos;
    try { pos = parseLfen(lfen); } catch (e) { this.showError(messageOf(e)); pos = { board: {}, turn: 'w' }; }
    const base = { board: pos.board, turn: pos.turn, lastPath: last ? last.path : [], lastCaptured: last ? last.captured || [] : [] };
    // One step forward (a move played, or the next move) is played on the board.
    const prev = this.shown;
    this.shown = node;
    let animate = null;
    if (prev && node.parent === prev && last) {
      try { animate = { move: last, before: parseLfen(prev.lfen).board }; } catch { animate = null; }
    }
    this.board.set({ ...base, legal: [], movable: false }, { animate });
    if (this.study) {
      this.board.drawings.load(node.shapes || []);
      this.study.onShow(node);
    }
    // data-turn changes only once the server's legal moves are in: until
    // then the board takes no move (and the status is aria-busy).
    this.current = null;
    this.status.setAttribute('aria-busy', 'true');
    let v;
    try {
      v = await this.view(lfen);
    } catch (e) {
      if (node !== this.node || this.destroyed) return;
      this.status.removeAttribute('aria-busy');
      this.showError(messageOf(e));
      setText(this.status, t('analysis.invalid'));
      return;
    }
    if (node !== this.node || this.destroyed || this.editing) return;
    this.current = v;
    this.status.removeAttribute('aria-busy');
    const turn = v.turn === 'b' ? 'b' : 'w';
    const check = v.check ? Object.entries(v.board || {}).find(([, o]) => o.piece === turn + 'K')?.[0] : null;
    this.board.set({
      ...base, board: v.board || pos.board, turn, legal: v.outcome ? [] : v.legal || [], movable: !v.outcome,
      checkSquare: check, mustCapture: v.must_capture || [], arrows: this.engineArrows(lfen),
    });
    // The server's board may differ in form from the LFEN's: a study's shapes stay.
    if (this.study) this.board.drawings.load(node.shapes || []);
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

  /** The address of what is shown: the game and its move, or the position (a study keeps its own). */
  writeUrl() {
    if (this.study) return;
    const q = new URLSearchParams();
    if (this.game) {
      q.set('game', this.game.id);
      q.set('ply', String(this.gamePly(this.node)));
    } else {
      q.set('lfen', this.lfen());
      if (this.rules !== 'default') q.set('rules', this.rules);
    }
    history.replaceState(null, '', `/analysis?${q}`);
  }

  /**
   * Plays a legal move of the server's view: the server gives the position
   * after it (`lfen`, with the King removal of 5.1 when the move mates), so
   * the page never applies the rules itself. From the middle of a line the
   * move starts a variation; the line stays.
   */
  /** @param {any} move a legal move of the server's view, or a move the board entered */
  async play(move) {
    this.showError('');
    const from = this.node;
    if (!move.lfen) {
      // Only the server's moves carry their result; ask it about any other.
      try {
        const r = await api.explain(from.lfen, this.rules, move.path && move.path.length ? move.path : [move.from, move.to]);
        if (!r.legal || !r.move || !r.move.lfen) { this.showError(r.error || t('analysis.illegal')); return; }
        move = r.move;
      } catch (e) {
        this.showError(messageOf(e));
        return;
      }
    }
    if (this.destroyed || from !== this.node) return;
    const known = from.children.some((c) => c.move?.canonical === move.canonical);
    this.node = this.tree.add(from, move);
    if (known) this.show();
    else { this.refresh(); this.study?.onChange(); }
  }

  /** @param {string[]} squares */
  async explain(squares) {
    try {
      const r = await api.explain(this.lfen(), this.rules, squares);
      if (r && r.legal && r.move) {
        const legal = (this.current && this.current.legal) || [];
        this.play(legal.find((/** @type {any} */ m) => m.canonical === r.move.canonical) || r.move);
      } else if (r) {
        this.showError(r.error || t('analysis.illegal'));
      }
    } catch (e) {
      this.showError(messageOf(e));
    }
  }

  /**
   * Plays the server's moves `canonicals` one after another from `node`
   * (each looked up in that position's legal moves) and shows the last.
   */
  /** @param {TreeNode} node @param {string[]} canonicals */
  async playLine(node, canonicals) {
    let n = node;
    let grew = false;
    for (const c of canonicals) {
      let v;
      try { v = await this.view(n.lfen); } catch (e) { this.showError(messageOf(e)); break; }
      const m = (v.legal || []).find((/** @type {any} */ x) => x.canonical === c);
      if (!m || this.destroyed) break;
      if (!n.children.some((x) => x.move?.canonical === c)) grew = true;
      n = this.tree.add(n, m);
    }
    if (this.destroyed || n === node) return;
    this.node = n;
    if (grew) { this.refresh(); this.study?.onChange(); } else this.show();
  }

  // ---- the tree's menu ---------------------------------------------------------

  /** @param {string} action @param {TreeNode} node */
  act(action, node) {
    if (!node || !node.parent || !this.tree.get(node.id)) return;
    if (action === 'promote') this.tree.promote(node);
    else if (action === 'main') this.tree.makeMain(node);
    else if (action === 'delete') {
      const inside = this.tree.path(this.node).includes(node);
      const parent = this.tree.remove(node);
      if (inside) this.node = parent;
    } else return;
    this.refresh();
    this.study?.onChange();
  }

  showTreeActions() {
    const buttons = this.treeView.actions(this.node).map(([action, label]) => h('button', {
      type: 'button', 'data-action': action, onclick: () => this.act(action, this.node),
    }, label));
    this.treeActions.replaceChildren(...buttons);
    this.treeActions.hidden = !buttons.length;
  }

  // ---- a game of the site ------------------------------------------------------

  /** @param {string} id @param {string | null} plyParam */
  async loadGame(id, plyParam) {
    setText(this.status, t('analysis.game.loading'));
    let g;
    try {
      g = await request('GET', `/api/games/${encodeURIComponent(id)}`);
    } catch (e) {
      if (this.destroyed) return;
      this.showError(t('analysis.game.loadFailed', { error: messageOf(e) }));
      this.refresh();
      return;
    }
    if (this.destroyed) return;
    this.rules = g.rules === 'mate-ends-game' ? 'mate-ends-game' : 'default';
    this.rulesToggle.checked = this.rules === 'mate-ends-game';
    this.tree.reset(g.start || INITIAL_LFEN);
    const moves = g.moves || [];
    const nodes = [this.tree.root];
    for (const m of moves) nodes.push(this.tree.add(nodes[nodes.length - 1], m));
    this.game = { id: g.id || id, status: g.status, moves, nodes };
    const over = g.status === 'over' || g.status === 'aborted';
    const reason = tServer(g.reason_i18n, g.reason);
    this.result = over ? { node: nodes[nodes.length - 1], text: g.status === 'over' ? `${g.result}${reason ? ' — ' + reason : ''}` : t('analysis.game.aborted') } : null;
    setText(this.gameTitle, t('analysis.game.title', { id: this.game.id }));
    setText(this.gameResult, this.result ? this.result.text : t('analysis.game.inPlay'));
    this.gameLink.href = `/g/${encodeURIComponent(this.game.id)}`;
    this.gamePanel.hidden = false;
    let ply = plyParam === null || plyParam === '' || !/^\d+$/.test(String(plyParam)) ? moves.length : Number(plyParam);
    ply = Math.max(0, Math.min(moves.length, ply));
    this.node = nodes[ply];
    this.refresh();
    this.review.load(this.game.id, g.status);
  }

  /** The ply of the game at `node`, or at the last move of the game on its way back to the start. */
  /** @param {TreeNode} node */
  gamePly(node) {
    if (!this.game) return null;
    /** @type {TreeNode | null} */
    let n = node;
    for (; n; n = n.parent) {
      const i = this.game.nodes.indexOf(n);
      if (i >= 0) return i;
    }
    return 0;
  }

  /** The node of the game's ply `ply`, put back into the tree if it was deleted. */
  /** @param {number} ply */
  gameNode(ply) {
    const g = this.game;
    if (!g) return { node: this.tree.root, grew: false };
    let grew = false;
    for (let i = 1; i <= ply; i++) {
      if (!this.tree.get(g.nodes[i].id) || g.nodes[i].parent !== g.nodes[i - 1]) {
        const before = g.nodes[i - 1].children.length;
        g.nodes[i] = this.tree.add(g.nodes[i - 1], g.moves[i - 1]);
        if (g.nodes[i - 1].children.length !== before) grew = true;
      }
    }
    return { node: g.nodes[ply], grew };
  }

  /** @param {number} ply */
  goToGamePly(ply) {
    if (!this.game) return;
    const { node, grew } = this.gameNode(Math.max(0, Math.min(this.game.moves.length, ply)));
    if (grew) { this.node = node; this.refresh(); } else this.go(node);
  }

  /** @param {number} ply */
  gameMoveName(ply) {
    const m = this.game && this.game.moves[ply - 1];
    if (!m) return '';
    const { number, white } = this.tree.moveNumber(ply);
    return `${number}${white ? '.' : '…'} ${m.human ? showMove(m.human) : m.canonical}`;
  }

  /** The computer's judgement of `node`'s move, when it is a judged move of the game. */
  /** @param {TreeNode} node */
  judgement(node) {
    if (!this.game || !this.review.report) return null;
    const ply = this.game.nodes.indexOf(node);
    return ply > 0 ? this.review.judgement(ply) : null;
  }

  showJudgement() {
    const j = this.judgement(this.node);
    this.judgementNote.hidden = !j;
    if (!j) { this.judgementNote.replaceChildren(); return; }
    const parts = [h(`span.glyph.judged-${j.cls}`, j.glyph), ' ', h('span', j.title)];
    const parent = this.node.parent;
    const best = j.best;
    if (best && parent) {
      parts.push(' ', h('button.link', { type: 'button', onclick: () => this.playLine(parent, [best]) }, t('analysis.review.tryBest')));
    }
    this.judgementNote.className = `note judgement judged-${j.cls}`;
    this.judgementNote.replaceChildren(...parts);
  }

  /** The result after the main line's last move, when it is the game's (or the record's) end. */
  resultLine() {
    if (!this.result || !this.tree.get(this.result.node.id) || this.tree.end(this.tree.root) !== this.result.node) return null;
    return h('div.tree-result', { 'data-result': '' }, this.result.text);
  }

  // ---- loading -------------------------------------------------------------------

  /** Starts over from `start`: an empty tree, no game. */
  /** @param {string} start */
  newTree(start) {
    this.tree.reset(start);
    this.node = this.tree.root;
    this.game = null;
    this.result = null;
    this.gamePanel.hidden = true;
    this.review.reset();
  }

  /** @param {string} text */
  async loadLfen(text) {
    text = String(text || '').trim();
    if (!text) return;
    try {
      const v = await api.position(text, this.rules);
      this.newTree(v.lfen || text);
      this.showError('');
      this.refresh();
    } catch (e) {
      this.showError(messageOf(e));
    }
  }

  async loadRecord() {
    const text = this.recordInput.value;
    if (!text.trim()) { this.showError(t('analysis.recordEmpty')); return; }
    try {
      const r = await api.parseRecord(text);
      this.rules = r.rules === 'mate-ends-game' ? 'mate-ends-game' : 'default';
      this.rulesToggle.checked = this.rules === 'mate-ends-game';
      this.newTree(r.start || INITIAL_LFEN);
      let n = this.tree.root;
      for (const m of r.moves || []) n = this.tree.add(n, m);
      this.node = n; // at the end, as a game
      if (r.result && r.result !== '*') this.result = { node: n, text: r.result };
      this.showError('');
      const tags = r.tags || {};
      const who = tags.White || tags.Black ? `${tags.White || '?'} – ${tags.Black || '?'}` : t('analysis.recordGame');
      toast(t('analysis.recordLoaded', { game: who, moves: (r.moves || []).length, result: r.result || '*' }));
      this.refresh();
    } catch (e) {
      this.showError(messageOf(e));
    }
  }

  flip() {
    this.flipped = !this.flipped;
    this.board.setFlipped(this.flipped);
    this.study?.onFlip(this.flipped);
  }

  /**
   * Shows another tree (a study's chapter): its start, its rules, its side
   * at the bottom; `node` (else the start) shown.
   * @param {MoveTree} tree @param {string} rules @param {boolean} flipped @param {TreeNode} [node]
   */
  useTree(tree, rules, flipped, node) {
    this.tree = tree;
    this.node = node && tree.get(node.id) === node ? node : tree.root;
    this.rules = rules === 'mate-ends-game' ? 'mate-ends-game' : 'default';
    this.rulesToggle.checked = this.rules === 'mate-ends-game';
    this.flipped = flipped;
    this.board.setFlipped(flipped);
    this.shown = null;
    this.showError('');
    this.refresh();
  }

  /** Saves the tree as a new study of one chapter, and opens it. */
  async saveAsStudy() {
    const title = t('study.defaultTitle', { date: new Date().toLocaleDateString() });
    try {
      const id = await createStudy(title, [chapterOf(t('study.chapterN', { n: 1 }), this.tree, this.rules, this.flipped)]);
      location.href = `/study/${encodeURIComponent(id)}`;
    } catch (e) {
      this.showError(messageOf(e));
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

  /** @param {string} text */
  showError(text) {
    showError(this.error, text);
  }

  // ---- engine ----------------------------------------------------------------

  runEngine() {
    this.analysis?.abort();
    clearTimeout(this.analyseTimer);
    const lfen = this.lfen();
    if (!this.engineOn || this.editing) {
      setText(this.score, this.editing ? '–' : t('analysis.engineOff'));
      setText(this.depth, '');
      this.pv.replaceChildren();
      this.setBar(0);
      this.redrawArrows();
      return;
    }
    if (this.current && this.current.outcome) {
      setText(this.score, this.current.outcome.result);
      setText(this.depth, '');
      this.pv.replaceChildren();
      return;
    }
    const key = this.rules + ' ' + lfen;
    if (this.evals.has(key)) { this.showEval(lfen, this.evals.get(key)); return; }
    setText(this.depth, t('analysis.thinking'));
    // Wait a moment: stepping quickly through a game must not queue searches.
    this.analyseTimer = setTimeout(async () => {
      const ctl = new AbortController();
      this.analysis = ctl;
      try {
        // `lines` asks for several lines; a server that does not know it sends one.
        const r = await request('POST', '/api/analyse', { lfen, rules: this.rules, moves: [], movetime_ms: 1000, lines: MAX_LINES }, { signal: ctl.signal });
        this.evals.set(key, r);
        if (ctl.signal.aborted || lfen !== this.lfen()) return;
        this.showEval(lfen, r);
      } catch (e) {
        if (e instanceof Error && e.name === 'AbortError') return;
        if (lfen !== this.lfen()) return;
        setText(this.score, '–');
        setText(this.depth, e instanceof ApiError && e.status === 503 ? t('analysis.engineBusy') : messageOf(e));
        if (e instanceof ApiError && e.status === 503) this.analyseTimer = setTimeout(() => this.runEngine(), 2000);
      }
    }, 250);
  }

  /** The engine's answer for `lfen`: its lines (`lines`, when the server sends several) or its one best line. */
  /** @param {string} lfen @param {any} r the server's answer */
  showEval(lfen, r) {
    const turn = lfenTurnAndNumber(lfen).turn;
    const lines = (Array.isArray(r.lines) && r.lines.length ? r.lines : [{ score: r.score, pv: r.pv && r.pv.length ? r.pv : r.best ? [r.best] : [] }])
      .slice(0, MAX_LINES);
    const first = scoreFor(lines[0].score, turn);
    setText(this.score, first.text);
    // Several lines are several searches: their nodes add up.
    const nodes = lines.length > 1 ? lines.reduce((/** @type {number} */ n, /** @type {EngineLine} */ l) => n + (Number(l.nodes) || 0), 0) || r.nodes : r.nodes;
    setText(this.depth, t('analysis.depth', { depth: r.depth ?? '?', nodes: formatNumber(nodes || 0) }));
    this.setBar(first.bar);
    const node = this.node;
    const rows = lines.map((/** @type {EngineLine} */ line, /** @type {number} */ i) => {
      const s = scoreFor(line.score, turn);
      const pv = line.pv || [];
      return h(lines.length > 1 ? 'div.pv-line.multi' : 'div.pv-line', { 'data-line': i + 1 },
        lines.length > 1 ? h('span.pv-score', s.text) : h('span.small', t('analysis.bestLine')),
        ' ', ...this.pvMoves(lfen, pv, node));
    });
    this.pv.replaceChildren(...rows);
    this.best = { lfen, paths: lines.map((/** @type {EngineLine} */ l) => squaresOfMove((l.pv || [])[0])) };
    this.redrawArrows();
  }

  /** The moves of a line, each a button that plays the line up to it. */
  /** @param {string} lfen @param {any[]} pv @param {TreeNode} node */
  pvMoves(lfen, pv, node) {
    const start = lfenTurnAndNumber(lfen);
    let number = start.fullmove;
    let side = start.turn;
    const out = [];
    if (!pv.length) out.push('—');
    pv.forEach((/** @type {any} */ m, /** @type {number} */ i) => {
      if (side === 'w') out.push(h('span.num', `${number}.`));
      else if (!i) out.push(h('span.num', `${number}…`));
      out.push(h('button.pv-move', {
        type: 'button',
        title: t('analysis.playLine'),
        onclick: () => { if (this.node === node) this.playLine(node, pv.slice(0, i + 1).map((/** @type {any} */ x) => x.canonical)); },
      }, m.human ? showMove(m.human) : m.canonical));
      if (side === 'b') number++;
      side = side === 'w' ? 'b' : 'w';
    });
    return out;
  }

  /** Arrows of the engine's first moves: the best in blue, the other lines' in grey. */
  /** @param {string} lfen */
  engineArrows(lfen) {
    if (!this.engineOn || !this.best || this.best.lfen !== lfen) return [];
    return this.best.paths.map((path, i) => ({ path, color: i ? 'grey' : 'blue' })).filter((a) => a.path.length >= 2).reverse();
  }

  redrawArrows() {
    if (this.current && !this.editing) this.board.set({ ...this.board.view, arrows: this.engineArrows(this.lfen()) });
  }

  /** @param {number} v */
  setBar(v) {
    const bar = /** @type {HTMLElement | null} */ (this.evalBar.firstElementChild);
    if (bar) bar.style.width = `${50 + v * 50}%`;
  }

  // ---- editor ----------------------------------------------------------------

  buildEditor() {
    this.tool = 'wM';
    this.paletteButtons = [];
    const btn = (/** @type {string} */ code, /** @type {string | undefined} */ prisoner, /** @type {string} */ label) => {
      const b = h('button', { type: 'button', 'aria-label': label, title: label, 'aria-pressed': 'false', }, pieceIcon(code, prisoner, 36));
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
        h('div.palette', [...'KQRBNMT'].map((r) => btn(c + r, undefined, t(`piece.${c}${r}`)))));
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

  /** @param {string} tool */
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
    this.endgame.hide();
    this.review.el.hidden = true;
    this.editPanel.hidden = false;
    this.edit = { board: { ...pos.board }, turn: pos.turn, castling: pos.castling };
    this.turnSelect.value = pos.turn;
    for (const [r, box] of Object.entries(this.castleBoxes)) box.checked = pos.castling.includes(r);
    this.setTool(this.tool);
    this.editChanged();
  }

  /** @param {BoardMap} board @param {string} [castling] @param {string} [turn] */
  setEdit(board, castling = '', turn) {
    this.edit.board = { ...board };
    if (turn) { this.edit.turn = turn; this.turnSelect.value = turn; }
    for (const [r, box] of Object.entries(this.castleBoxes)) box.checked = castling.includes(r);
    this.editChanged();
  }

  /** @param {string} sq */
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

  /** @param {string} from @param {string | null} to */
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
        this.showError(messageOf(e));
      }
    }, 200);
  }

  async finishEditor() {
    const lfen = this.editLfen();
    try {
      await api.position(lfen, this.rules);
    } catch (e) {
      this.showError(messageOf(e));
      return;
    }
    this.closeEditor();
    this.newTree(lfen);
    this.refresh();
  }

  cancelEditor() {
    this.closeEditor();
    this.show();
  }

  closeEditor() {
    this.editing = false;
    this.playPanel.hidden = false;
    this.enginePanel.hidden = false;
    this.review.el.hidden = !this.review.id;
    this.editPanel.hidden = true;
    this.showError('');
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    if (typingIn(e) || e.altKey || e.ctrlKey || e.metaKey || this.editing) return;
    if (document.querySelector('dialog[open]')) return;
    const n = this.node;
    if (e.key === 'ArrowLeft') this.go(n.parent);
    else if (e.key === 'ArrowRight') this.go(n.children[0]);
    else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      const to = this.tree.sibling(n, e.key === 'ArrowDown' ? 1 : -1);
      if (!to) return;
      this.go(to);
    } else if (e.key === 'Home') this.go(this.tree.root);
    else if (e.key === 'End') this.go(this.tree.end(n));
    else if (e.key === 'f') this.flip();
    else return;
    e.preventDefault();
  }
}

/** A score of the engine (for the side to move `turn`) from White's side: its words and the bar's position (−1…1). */
/** @param {string | undefined} score @param {string} turn */
function scoreFor(score, turn) {
  const sign = turn === 'w' ? 1 : -1;
  const [kind, n] = String(score || 'cp 0').split(/\s+/);
  const num = Number(n) || 0;
  if (kind === 'win' || kind === 'loss') {
    const whiteWins = (kind === 'win') === (sign === 1);
    return { text: t('analysis.winsIn', { side: whiteWins ? 'w' : 'b', moves: num }), bar: whiteWins ? 1 : -1 };
  }
  const v = (num * sign) / 100;
  return { text: `${v > 0 ? '+' : ''}${v.toFixed(2)}`, bar: Math.max(-1, Math.min(1, v / 5)) };
}

const squaresOfMove = (/** @type {any} */ m) => (m && m.canonical ? m.canonical.match(/[a-h][1-8]/g) || [] : []);

/** @param {string} d @param {string} label @param {() => void} fn */
function navBtn(d, label, fn) {
  return h('button.nav', { type: 'button', 'aria-label': label, title: label, onclick: fn }, pathIcon(d));
}

/** What RULES 6.2 rejects that the placement alone shows (the rest is the server's). */
/** @param {BoardMap} board */
function placementProblem(board) {
  /** @type {Record<string, number>} */
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
