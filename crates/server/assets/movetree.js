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

export class MoveTree {
  constructor(start) {
    this.reset(start);
  }

  /** Empties the tree: only the start position `start` (an LFEN). */
  reset(start) {
    this.nextId = 1;
    this.root = { id: 0, parent: null, children: [], ply: 0, lfen: start, move: null };
    this.nodes = new Map([[0, this.root]]);
    const f = String(start || '').split(/\s+/);
    this.startTurn = f[1] === 'b' ? 'b' : 'w';
    this.startNumber = Number(f[4]) || 1;
  }

  get(id) {
    return this.nodes.get(Number(id)) || null;
  }

  /**
   * The node after `move` from `parent`: the existing child with the same
   * move, or a new one (the first child when the line ends here, else a new
   * variation after the others).
   */
  add(parent, move) {
    const same = parent.children.find((c) => c.move.canonical === move.canonical);
    if (same) return same;
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
        path: move.path && move.path.length ? move.path : squaresOf(move.canonical),
        captured: move.captured || [],
        kind: move.kind || null,
      },
    };
    node.move.from = move.from || node.move.path[0];
    node.move.to = move.to || node.move.path[node.move.path.length - 1];
    parent.children.push(node);
    this.nodes.set(node.id, node);
    return node;
  }

  /** The nodes from the root to `node`, both included. */
  path(node) {
    const out = [];
    for (let n = node; n; n = n.parent) out.push(n);
    return out.reverse();
  }

  /** The line that continues `node`: its first child, that one's first child ... */
  continuation(node) {
    const out = [];
    for (let n = node.children[0]; n; n = n.children[0]) out.push(n);
    return out;
  }

  /** The main line: the root's continuation. */
  mainLine() {
    return this.continuation(this.root);
  }

  /** True when `node` lies on the main line (the root does). */
  isMain(node) {
    for (let n = node; n.parent; n = n.parent) if (n.parent.children[0] !== n) return false;
    return true;
  }

  /** The last node of the line through `node` (following first children). */
  end(node) {
    let n = node;
    while (n.children.length) n = n.children[0];
    return n;
  }

  /**
   * Promotes the variation that holds `node` one level: the nearest node on
   * its path that is not its parent's first child becomes the first. False
   * when `node` is already on the main line.
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

  /** Makes the line through `node` the main line. False when it is already. */
  makeMain(node) {
    let changed = false;
    while (this.promote(node)) changed = true;
    return changed;
  }

  /** Deletes `node` and everything after it; returns its parent. */
  remove(node) {
    if (!node.parent) return node;
    const sib = node.parent.children;
    sib.splice(sib.indexOf(node), 1);
    const drop = (n) => { this.nodes.delete(n.id); n.children.forEach(drop); };
    drop(node);
    return node.parent;
  }

  /** Move number and mover of the move that makes ply `ply` (1 = the first move from the start). */
  moveNumber(ply) {
    const i = ply - 1 + (this.startTurn === 'b' ? 1 : 0);
    return { number: this.startNumber + Math.floor(i / 2), white: i % 2 === 0 };
  }

  /**
   * The node to go to with the up/down keys: the next (+1) or previous (-1)
   * variation at the nearest branching point on the way back from `node`.
   */
  sibling(node, dir) {
    for (let n = node; n.parent; n = n.parent) {
      const sib = n.parent.children;
      if (sib.length > 1) return sib[(sib.indexOf(n) + dir + sib.length) % sib.length];
    }
    return null;
  }
}

export const squaresOf = (canonical) => (canonical || '').match(/[a-h][1-8]/g) || [];

/**
 * Draws a MoveTree. options: onPick(node), onAction(action, node) for
 * 'promote', 'main', 'delete'; annotate(node) → null or {cls, glyph, title}
 * (a judged move: its class, its sign ?! ? ??, words for its tooltip);
 * footer(): an element after the main line (the result), or null.
 */
export class TreeView {
  constructor(options) {
    this.opts = options;
    this.el = h('div.tree', { role: 'group', 'aria-label': t('analysis.tree.label'), 'data-tree': '' });
    this.buttons = new Map();
    this.current = null;
    this.menu = null;
    this.el.addEventListener('click', (e) => {
      const b = e.target.closest('[data-node]');
      if (b && this.tree) this.opts.onPick(this.tree.get(b.dataset.node));
    });
    this.el.addEventListener('contextmenu', (e) => {
      const b = e.target.closest('[data-node]');
      if (!b || !this.tree) return;
      e.preventDefault();
      let x = e.clientX;
      let y = e.clientY;
      if (!x && !y) { const r = b.getBoundingClientRect(); x = r.left; y = r.bottom; } // from the keyboard
      this.openMenu(this.tree.get(b.dataset.node), x, y, b);
    });
  }

  /** Redraws the whole tree (after a change of its shape), marking `current`. */
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

  /** The block of variations `alts` (siblings of a move drawn just before). */
  variations(alts) {
    return h('div.tree-vars', alts.map((n) => this.line(n)));
  }

  /** One variation from `start` on, with its own variations nested inside. */
  line(start) {
    const el = h('div.tree-line', { 'aria-label': t('analysis.tree.variation') });
    let number = true;
    for (let n = start; n; n = n.children[0]) {
      const { number: no, white } = this.tree.moveNumber(n.ply);
      if (white) el.append(h('span.num', `${no}.`));
      else if (number) el.append(h('span.num', `${no}…`));
      el.append(this.button(n, false));
      number = false;
      if (n !== start && n.parent.children.length > 1 && n.parent.children[0] === n) {
        el.append(this.variations(n.parent.children.slice(1)));
        number = true;
      }
    }
    return el;
  }

  button(node, main) {
    const a = this.opts.annotate ? this.opts.annotate(node) : null;
    const b = h('button.mv', {
      type: 'button',
      'data-node': node.id,
      'data-ply': main ? node.ply : null,
      'data-line': main ? 'main' : 'variation',
      title: a && a.title ? a.title : node.move.canonical,
    }, node.move.human);
    if (a) {
      b.classList.add(`judged-${a.cls}`);
      b.dataset.class = a.cls;
      b.append(h('span.glyph', { 'aria-hidden': 'true' }, a.glyph));
      b.setAttribute('aria-label', `${node.move.human} ${a.glyph} ${a.title || ''}`.trim());
    }
    this.buttons.set(node.id, b);
    return b;
  }

  /** Marks the node shown and scrolls the list (only the list) to it. */
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

  /** What may be done with `node`: [[action, label]]. */
  actions(node) {
    const out = [];
    if (!node || !node.parent) return out;
    if (!this.tree.isMain(node)) {
      out.push(['promote', t('analysis.tree.promote')]);
      out.push(['main', t('analysis.tree.makeMain')]);
    }
    out.push(['delete', t('analysis.tree.delete')]);
    return out;
  }

  openMenu(node, x, y, from) {
    this.closeMenu();
    const items = this.actions(node).map(([action, label]) => h('button', {
      type: 'button',
      role: 'menuitem',
      'data-action': action,
      onclick: () => { this.closeMenu(); this.opts.onAction(action, node); },
    }, label));
    if (!items.length) return;
    const menu = h('div.tree-menu', { role: 'menu', 'aria-label': node.move.human },
      h('div.tree-menu-title', node.move.human), items);
    menu.addEventListener('keydown', (e) => {
      const i = items.indexOf(document.activeElement);
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
    this.outside = (e) => { if (!menu.contains(e.target)) this.closeMenu(); };
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
