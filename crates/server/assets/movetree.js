// @ts-check
// The analysis board's move tree, as on lichess: every position reached is a
// node; a node's first child is the main continuation, the others are
// variations. Playing a move from the middle of a line adds a variation and
// loses nothing. MoveTree is the data (no DOM); TreeView draws it: the main
// line in numbered rows, the variations nested and indented below the move
// they branch from, a menu (right click, the context-menu key, or the
// buttons under the list) to promote or delete a variation.
//
// A node's move is the server's: {canonical, human, lfen, path, captured};
// its position is `lfen`, the position after the move as the server gave it.

import { h } from './ui.js';
import { t } from './i18n.js';
import { lfenTurnAndNumber } from './lfen.js';
import { showMove } from './notation.js';

/**
 * @typedef {{canonical: string, human: string, lfen: string, path: string[], captured: string[], kind: string | null, from: string, to: string}} TreeMove
 * @typedef {{
 *   id: number, parent: TreeNode | null, children: TreeNode[], ply: number, lfen: string, move: TreeMove | null,
 *   comment?: string, shapes?: import('./board-draw.js').Shape[],
 * }} TreeNode a position; a study's also has its comment and its arrows and circles
 * @typedef {{canonical: string, lfen: string, human?: string, path?: string[], captured?: string[], kind?: string, from?: string, to?: string}} ServerMove
 * @typedef {{cls: string, glyph: string, title?: string}} Annotation
 * @typedef {{
 *   onPick: (node: TreeNode | null) => void, onAction: (action: string, node: TreeNode) => void,
 *   annotate?: (node: TreeNode) => Annotation | null, footer?: () => HTMLElement | null,
 * }} TreeViewOptions
 */

export class MoveTree {
  /** @param {string} start */
  constructor(start) {
    this.nextId = 1;
    /** @type {TreeNode} */
    this.root = { id: 0, parent: null, children: [], ply: 0, lfen: start, move: null };
    /** @type {Map<number, TreeNode>} */
    this.nodes = new Map();
    this.startTurn = 'w';
    this.startNumber = 1;
    this.reset(start);
  }

  /** Empties the tree: only the start position `start` (an LFEN). @param {string} start */
  reset(start) {
    this.nextId = 1;
    this.root = { id: 0, parent: null, children: [], ply: 0, lfen: start, move: null };
    this.nodes = new Map([[0, this.root]]);
    // A start typed into the address may be no LFEN at all: the server's
    // answer for it says so on the page; meanwhile moves count from 1.
    let f = { turn: 'w', fullmove: 1 };
    try { f = lfenTurnAndNumber(start); } catch { /* the server explains */ }
    this.startTurn = f.turn;
    this.startNumber = f.fullmove;
  }

  /** @param {string | number | undefined} id */
  get(id) {
    return this.nodes.get(Number(id)) || null;
  }

  /**
   * The node after `move` from `parent`: the existing child with the same
   * move, or a new one (the first child when the line ends here, else a new
   * variation after the others).
   * @param {TreeNode} parent @param {ServerMove} move
   * @returns {TreeNode}
   */
  add(parent, move) {
    const same = parent.children.find((c) => c.move?.canonical === move.canonical);
    if (same) return same;
    const path = move.path && move.path.length ? move.path : squaresOf(move.canonical);
    /** @type {TreeNode} */
    const node = {
      id: this.nextId++,
      parent,
      children: [],
      ply: parent.ply + 1,
      lfen: move.lfen,
      move: {
        canonical: move.canonical,
        human: move.human || move.canonical,
        lfen: move.lfen,
        path,
        captured: move.captured || [],
        kind: move.kind || null,
        from: move.from || path[0],
        to: move.to || path[path.length - 1],
      },
    };
    parent.children.push(node);
    this.nodes.set(node.id, node);
    return node;
  }

  /** The nodes from the root to `node`, both included. @param {TreeNode} node */
  path(node) {
    /** @type {TreeNode[]} */
    const out = [];
    /** @type {TreeNode | null} */
    let n = node;
    for (; n; n = n.parent) out.push(n);
    return out.reverse();
  }

  /** The line that continues `node`: its first child, that one's first child ... @param {TreeNode} node */
  continuation(node) {
    const out = [];
    for (let n = node.children[0]; n; n = n.children[0]) out.push(n);
    return out;
  }

  /** The main line: the root's continuation. */
  mainLine() {
    return this.continuation(this.root);
  }

  /** True when `node` lies on the main line (the root does). @param {TreeNode} node */
  isMain(node) {
    for (let n = node; n.parent; n = n.parent) if (n.parent.children[0] !== n) return false;
    return true;
  }

  /** The last node of the line through `node` (following first children). @param {TreeNode} node */
  end(node) {
    let n = node;
    while (n.children.length) n = n.children[0];
    return n;
  }

  /**
   * Promotes the variation that holds `node` one level: the nearest node on
   * its path that is not its parent's first child becomes the first. False
   * when `node` is already on the main line.
   * @param {TreeNode} node
   */
  promote(node) {
    for (let n = node; n.parent; n = n.parent) {
      const sib = n.parent.children;
      const i = sib.indexOf(n);
      if (i > 0) {
        sib.splice(i, 1);
        sib.unshift(n);
        return true;
      }
    }
    return false;
  }

  /** Makes the line through `node` the main line. False when it is already. @param {TreeNode} node */
  makeMain(node) {
    let changed = false;
    while (this.promote(node)) changed = true;
    return changed;
  }

  /** Deletes `node` and everything after it; returns its parent. @param {TreeNode} node */
  remove(node) {
    if (!node.parent) return node;
    const sib = node.parent.children;
    sib.splice(sib.indexOf(node), 1);
    /** @param {TreeNode} n */
    const drop = (n) => { this.nodes.delete(n.id); n.children.forEach(drop); };
    drop(node);
    return node.parent;
  }

  /** Move number and mover of the move that makes ply `ply` (1 = the first move from the start). @param {number} ply */
  moveNumber(ply) {
    const i = ply - 1 + (this.startTurn === 'b' ? 1 : 0);
    return { number: this.startNumber + Math.floor(i / 2), white: i % 2 === 0 };
  }

  /**
   * The node to go to with the up/down keys: the next (+1) or previous (-1)
   * variation at the nearest branching point on the way back from `node`.
   * @param {TreeNode} node @param {number} dir
   */
  sibling(node, dir) {
    for (let n = node; n.parent; n = n.parent) {
      const sib = n.parent.children;
      if (sib.length > 1) return sib[(sib.indexOf(n) + dir + sib.length) % sib.length];
    }
    return null;
  }
}

/** @param {string | undefined} canonical @returns {string[]} */
export const squaresOf = (canonical) => (canonical || '').match(/[a-h][1-8]/g) || [];

/**
 * Draws a MoveTree. options: onPick(node), onAction(action, node) for
 * 'promote', 'main', 'delete'; annotate(node) → null or {cls, glyph, title}
 * (a judged move: its class, its sign ?! ? ??, words for its tooltip);
 * footer(): an element after the main line (the result), or null.
 */
export class TreeView {
  /** @param {TreeViewOptions} options */
  constructor(options) {
    this.opts = options;
    /** @type {HTMLElement} */
    this.el = h('div.tree', { role: 'group', 'aria-label': t('analysis.tree.label'), 'data-tree': '' });
    /** @type {Map<number, HTMLElement>} */
    this.buttons = new Map();
    /** @type {TreeNode | null} */
    this.current = null;
    /** @type {HTMLElement | null} */
    this.menu = null;
    /** @type {MoveTree | null} */
    this.tree = null;
    /** @type {(e: Event) => void} */
    this.outside = () => {};
    this.el.addEventListener('click', (e) => {
      const b = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest('[data-node]'));
      if (b && this.tree) this.opts.onPick(this.tree.get(b.dataset.node));
    });
    this.el.addEventListener('contextmenu', (e) => {
      const b = /** @type {HTMLElement | null} */ (/** @type {Element} */ (e.target).closest('[data-node]'));
      if (!b || !this.tree) return;
      e.preventDefault();
      let x = e.clientX;
      let y = e.clientY;
      if (!x && !y) { const r = b.getBoundingClientRect(); x = r.left; y = r.bottom; } // from the keyboard
      const node = this.tree.get(b.dataset.node);
      if (node) this.openMenu(node, x, y, b);
    });
  }

  /** Redraws the whole tree (after a change of its shape), marking `current`. @param {MoveTree} tree @param {TreeNode | null} current */
  render(tree, current) {
    this.tree = tree;
    this.buttons.clear();
    this.closeMenu();
    const main = h('div.tree-main');
    const cells = [];
    let col = 0; // 1 after a White move: the row waits for Black's
    let node = tree.root;
    if (!node.children.length) cells.push(h('div.tree-empty', t('analysis.tree.empty')));
    while (node.children.length) {
      const c = node.children[0];
      const { number, white } = tree.moveNumber(c.ply);
      if (white) {
        cells.push(h('span.num', `${number}.`), this.button(c, true));
        col = 1;
      } else {
        if (col === 0) cells.push(h('span.num', `${number}.`), h('span.blank', '…'));
        cells.push(this.button(c, true));
        col = 0;
      }
      if (node.children.length > 1) {
        if (col === 1) { cells.push(h('span.blank', '…')); col = 0; }
        cells.push(this.variations(node.children.slice(1)));
      }
      node = c;
    }
    const footer = this.opts.footer && this.opts.footer();
    if (footer) cells.push(footer);
    main.append(...cells);
    this.el.replaceChildren(main);
    this.current = null;
    this.setCurrent(current);
  }

  /** The block of variations `alts` (siblings of a move drawn just before). @param {TreeNode[]} alts */
  variations(alts) {
    return h('div.tree-vars', alts.map((n) => this.line(n)));
  }

  /** One variation from `start` on, with its own variations nested inside. @param {TreeNode} start */
  line(start) {
    const el = h('div.tree-line', { 'aria-label': t('analysis.tree.variation') });
    const tree = this.tree;
    if (!tree) return el;
    let number = true;
    for (let n = start; n; n = n.children[0]) {
      const { number: no, white } = tree.moveNumber(n.ply);
      if (white) el.append(h('span.num', `${no}.`));
      else if (number) el.append(h('span.num', `${no}…`));
      el.append(this.button(n, false));
      number = false;
      if (n !== start && n.parent && n.parent.children.length > 1 && n.parent.children[0] === n) {
        el.append(this.variations(n.parent.children.slice(1)));
        number = true;
      }
    }
    return el;
  }

  /** @param {TreeNode} node @param {boolean} main */
  button(node, main) {
    const human = node.move ? showMove(node.move.human) : '';
    const a = this.opts.annotate ? this.opts.annotate(node) : null;
    const b = h('button.mv', {
      type: 'button',
      'data-node': node.id,
      'data-ply': main ? node.ply : null,
      'data-line': main ? 'main' : 'variation',
      title: a && a.title ? a.title : node.move?.canonical,
    }, human);
    if (a) {
      b.classList.add(`judged-${a.cls}`);
      b.dataset.class = a.cls;
      b.append(h('span.glyph', { 'aria-hidden': 'true' }, a.glyph));
      b.setAttribute('aria-label', `${human} ${a.glyph} ${a.title || ''}`.trim());
    }
    // A study's commented move is marked (the comment shows beside the board).
    if (node.comment) b.classList.add('commented');
    this.buttons.set(node.id, b);
    return b;
  }

  /** Marks the node shown and scrolls the list (only the list) to it. @param {TreeNode | null} node */
  setCurrent(node) {
    if (this.current === node) return;
    if (this.current) this.buttons.get(this.current.id)?.removeAttribute('aria-current');
    this.current = node;
    const b = node ? this.buttons.get(node.id) : null;
    if (!b) {
      if (node && !node.parent) this.el.scrollTop = 0;
      return;
    }
    b.setAttribute('aria-current', 'step');
    const box = this.el.getBoundingClientRect();
    const r = b.getBoundingClientRect();
    if (r.top < box.top) this.el.scrollTop -= box.top - r.top + 4;
    else if (r.bottom > box.bottom) this.el.scrollTop += r.bottom - box.bottom + 4;
  }

  // ---- the menu -----------------------------------------------------------

  /** What may be done with `node`: [[action, label]]. @param {TreeNode} node @returns {[string, string][]} */
  actions(node) {
    /** @type {[string, string][]} */
    const out = [];
    if (!node.parent || !this.tree) return out;
    if (!this.tree.isMain(node)) {
      out.push(['promote', t('analysis.tree.promote')]);
      out.push(['main', t('analysis.tree.makeMain')]);
    }
    out.push(['delete', t('analysis.tree.delete')]);
    return out;
  }

  /** @param {TreeNode} node @param {number} x @param {number} y @param {HTMLElement} from */
  openMenu(node, x, y, from) {
    const human = node.move ? showMove(node.move.human) : '';
    this.closeMenu();
    const items = this.actions(node).map(([action, label]) => h('button', {
      type: 'button',
      role: 'menuitem',
      'data-action': action,
      onclick: () => { this.closeMenu(); this.opts.onAction(action, node); },
    }, label));
    if (!items.length) return;
    const menu = h('div.tree-menu', { role: 'menu', 'aria-label': human },
      h('div.tree-menu-title', human), items);
    menu.addEventListener('keydown', (/** @type {KeyboardEvent} */ e) => {
      const i = items.indexOf(/** @type {HTMLElement} */ (document.activeElement));
      if (e.key === 'Escape') { this.closeMenu(); from?.focus(); }
      else if (e.key === 'ArrowDown') items[(i + 1) % items.length].focus();
      else if (e.key === 'ArrowUp') items[(i - 1 + items.length) % items.length].focus();
      else if (e.key === 'Tab') this.closeMenu();
      else return;
      e.preventDefault();
      e.stopPropagation();
    });
    document.body.append(menu);
    // Inside the window, below and to the right of the pointer if it fits.
    const r = menu.getBoundingClientRect();
    menu.style.left = `${Math.max(4, Math.min(x, innerWidth - r.width - 4))}px`;
    menu.style.top = `${Math.max(4, y + r.height > innerHeight - 4 ? y - r.height : y)}px`;
    this.menu = menu;
    this.outside = (e) => { if (!menu.contains(/** @type {Node} */ (e.target))) this.closeMenu(); };
    document.addEventListener('pointerdown', this.outside, true);
    addEventListener('scroll', this.outside, true);
    items[0].focus();
  }

  closeMenu() {
    if (!this.menu) return;
    this.menu.remove();
    this.menu = null;
    document.removeEventListener('pointerdown', this.outside, true);
    removeEventListener('scroll', this.outside, true);
  }

  destroy() {
    this.closeMenu();
  }
}
