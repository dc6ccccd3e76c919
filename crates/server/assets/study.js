// @ts-check
// A study (/study/{id}): the analysis board (analysis.js) holding a saved,
// shared analysis in chapters. Everyone with the link browses it, plays
// moves of their own (not saved) and may copy it into a study of their
// own; its owner (the account that made it, or the browser that holds its
// edit key) comments on moves, draws arrows and circles (the right
// button, or the drawing tool for a finger), adds, renames and deletes
// chapters, and every change is saved a moment later (saved / saving /
// not saved, shown beside the title). A save names the version it was
// read at: a study saved meanwhile elsewhere is not overwritten.

import { ApiError, copyText } from './api.js';
import { AnalysisPage } from './analysis.js';
import { MoveTree } from './movetree.js';
import { INITIAL_LFEN } from './lfen.js';
import { DRAW_COLORS } from './board-draw.js';
import { h, setText, showError, toast } from './ui.js';
import { t } from './i18n.js';
import { studyApi, studyKeys, nodesToTree, chapterOf, createStudy } from './study-data.js';

/**
 * @typedef {import('./movetree.js').TreeNode} TreeNode
 * @typedef {import('./study-data.js').Study} Study
 * @typedef {{name: string, rules: string, flipped: boolean, tree: MoveTree, node: TreeNode | null}} LiveChapter
 */

/** How long after a change the study is saved. */
const SAVE_DELAY_MS = 600;
const MAX_COMMENT = 2000;
const MAX_TITLE = 100;
const MAX_NAME = 100;

/** @param {HTMLElement} root @param {string} id */
export function mountStudy(root, id) {
  const page = new StudyPage(root, id);
  return () => page.destroy();
}

/** A part of the page not made yet (typed as any part). @type {any} */
const UNSET = null;

/** @param {unknown} e */
const messageOf = (e) => (e instanceof Error ? e.message : String(e));

class StudyPage {
  // The panel's parts, made by build() once the study is in.
  /** @type {HTMLElement} */ panel = UNSET;
  /** @type {HTMLElement} */ state = UNSET;
  /** @type {HTMLElement} */ chapterList = UNSET;
  /** @type {HTMLInputElement} */ chapterName = UNSET;
  /** @type {HTMLButtonElement} */ deleteChapterBtn = UNSET;
  /** @type {HTMLTextAreaElement} */ commentField = UNSET;
  /** @type {HTMLElement} */ commentText = UNSET;
  /** @type {HTMLButtonElement} */ drawButton = UNSET;
  /** @type {HTMLElement[]} */ swatches = [];
  /** @type {string} */ drawColor = DRAW_COLORS[0];

  /** @param {HTMLElement} root @param {string} id */
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.destroyed = false;
    /** @type {AnalysisPage | null} */
    this.board = null;
    /** @type {LiveChapter[]} */
    this.chapters = [];
    this.current = 0;
    this.title = '';
    this.version = 0;
    this.canEdit = false;
    /** @type {string | null} */
    this.owner = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.saveTimer = undefined;
    this.saving = false;
    this.pending = false;
    /** A save was refused for good (the study changed elsewhere): no more saves. */
    this.stopped = false;
    this.onLeave = (/** @type {BeforeUnloadEvent} */ e) => {
      if (this.pending || this.saving) { e.preventDefault(); e.returnValue = ''; }
    };
    addEventListener('beforeunload', this.onLeave);
    this.loading = h('p.small', { role: 'status' }, t('study.loading'));
    this.error = h('div.error', { role: 'alert', hidden: true, 'data-study-error': '' });
    this.box = h('div.study-box', this.loading, this.error);
    root.append(this.box);
    studyApi.get(id).then((s) => this.start(s), (e) => {
      if (this.destroyed) return;
      this.loading.remove();
      showError(this.error, e instanceof ApiError && e.status === 404 ? t('study.notFound') : messageOf(e));
    });
  }

  destroy() {
    this.destroyed = true;
    clearTimeout(this.saveTimer);
    removeEventListener('beforeunload', this.onLeave);
    this.board?.destroy();
  }

  /** @param {Study} s */
  start(s) {
    if (this.destroyed) return;
    this.loading.remove();
    this.title = s.title;
    this.version = s.version;
    this.canEdit = !!s.can_edit;
    this.owner = s.owner;
    this.chapters = s.chapters.map((c) => ({
      name: c.name, rules: c.rules, flipped: c.orientation === 'black', tree: nodesToTree(c.start, c.nodes), node: null,
    }));
    document.title = `${s.title} — ${t('study.title')}`;
    this.build();
    this.board = new AnalysisPage(this.root, {
      onShow: (node) => this.showComment(node),
      onChange: () => this.changed(),
      onDraw: (shapes) => this.drawn(shapes),
      onFlip: (flipped) => { this.chapter().flipped = flipped; this.changed(); },
    });
    // The study's panel first in the side column (on a phone: right under the board).
    this.root.querySelector('.side-col')?.prepend(this.panel);
    this.openChapter(0);
  }

  chapter() {
    return this.chapters[this.current];
  }

  build() {
    const edit = this.canEdit;
    this.state = h('span.save-state', { 'data-save-state': 'saved', role: 'status', 'aria-live': 'polite' }, t('study.state.saved'));
    this.state.hidden = !edit;
    const titleEl = edit
      ? h('input.study-title', { type: 'text', value: this.title, maxlength: MAX_TITLE, 'aria-label': t('study.titleLabel'), 'data-study-title': '',
        onchange: (/** @type {Event} */ e) => {
          const v = /** @type {HTMLInputElement} */ (e.target).value.trim();
          if (v) { this.title = v; document.title = `${v} — ${t('study.title')}`; this.changed(); } else /** @type {HTMLInputElement} */ (e.target).value = this.title;
        } })
      : h('h1.study-title', { 'data-study-title': '' }, this.title);
    const who = this.owner ? t('study.by', { name: this.owner }) : t('study.byAnonymous');
    this.chapterList = h('div.chapter-list', { role: 'group', 'aria-label': t('study.chapters') });
    this.chapterName = h('input.chapter-name', { type: 'text', maxlength: MAX_NAME, 'aria-label': t('study.chapterName'), 'data-chapter-name': '',
      onchange: () => this.rename() });
    this.deleteChapterBtn = h('button', { type: 'button', 'data-chapter-delete': '', onclick: () => this.deleteChapter() }, t('study.chapterDelete'));
    // Folded: a phone shows the comment and the moves sooner.
    const chapterTools = edit ? h('details.chapter-tools', h('summary', t('study.chapterEdit')),
      h('div.row', this.chapterName, this.deleteChapterBtn),
      h('div.row',
        h('button', { type: 'button', 'data-chapter-add': 'start', onclick: () => this.addChapter(INITIAL_LFEN, 'default') }, t('study.chapterAddStart')),
        h('button', { type: 'button', 'data-chapter-add': 'here', onclick: () => this.addChapter(this.board ? this.board.node.lfen : INITIAL_LFEN, this.board ? this.board.rules : 'default') }, t('study.chapterAddHere')))) : null;

    // The comment of the move shown: a field for the owner, words for the reader.
    this.commentField = h('textarea.study-comment-field', { rows: 3, maxlength: MAX_COMMENT, 'data-study-comment-field': '',
      placeholder: t('study.commentPlaceholder'), 'aria-label': t('study.comment'), oninput: () => this.commented() });
    this.commentText = h('p.study-comment', { 'data-study-comment': '' });
    const commentBox = edit ? this.commentField : this.commentText;

    // The drawing tool: for a finger (or a left button), in one of the colours.
    this.drawButton = h('button.draw-toggle', { type: 'button', 'aria-pressed': 'false', 'data-draw-tool': '', onclick: () => this.toggleDraw() }, t('study.draw'));
    this.drawColor = DRAW_COLORS[0];
    this.swatches = DRAW_COLORS.map((c) => h(`button.swatch.swatch-${c}`, {
      type: 'button', 'aria-pressed': String(c === this.drawColor), 'data-draw-color': c, title: t(`study.color.${c}`), 'aria-label': t(`study.color.${c}`),
      onclick: () => this.pickColor(c),
    }));
    const drawRow = edit ? h('div.row.draw-row', this.drawButton, h('span.swatches', this.swatches), h('span.small.draw-help', t('study.drawHelp'))) : null;

    const share = h('button', { type: 'button', 'data-study-share': '', onclick: async () => {
      toast((await copyText(`${location.origin}/study/${encodeURIComponent(this.id)}`)) ? t('study.linkCopied') : t('common.copyFailed'));
    } }, t('study.share'));
    const copy = h('button', { type: 'button', 'data-study-copy': '', onclick: () => this.copy() }, t('study.copy'));
    const remove = edit ? h('button.danger', { type: 'button', 'data-study-delete': '', onclick: () => this.deleteStudy() }, t('study.delete')) : null;
    const readOnly = edit ? null : h('p.note.small', { 'data-study-readonly': '' }, t('study.readOnly'));

    this.panel = h('div.panel.study-panel', { 'data-study': this.id },
      h('div.study-head', titleEl, this.state),
      h('p.small', who), readOnly,
      this.chapterList, chapterTools,
      h('div.study-comment-box', h('strong', t('study.comment')), commentBox),
      drawRow,
      h('div.row', share, copy, h('button', { type: 'button', 'data-study-flip': '', onclick: () => this.board?.flip() }, t('game.btn.flip')), remove),
      this.error);
  }

  renderChapters() {
    const buttons = this.chapters.map((c, i) => h('button.chapter', {
      type: 'button', 'data-chapter': i, 'aria-current': i === this.current ? 'true' : null,
      onclick: () => this.openChapter(i),
    }, `${i + 1}. ${c.name}`));
    this.chapterList.replaceChildren(...buttons);
    this.chapterName.value = this.chapter().name;
    this.deleteChapterBtn.disabled = this.chapters.length < 2;
  }

  /** @param {number} i */
  openChapter(i) {
    if (!this.board) return;
    if (this.chapters[this.current]) this.chapters[this.current].node = this.board.node;
    this.current = Math.max(0, Math.min(this.chapters.length - 1, i));
    const c = this.chapter();
    this.renderChapters();
    this.board.useTree(c.tree, c.rules, c.flipped, c.node || undefined);
  }

  // ---- what the board tells ----------------------------------------------------

  /** @param {TreeNode} node */
  showComment(node) {
    const text = node.comment || '';
    if (this.canEdit) {
      if (this.commentField.value !== text) this.commentField.value = text;
    } else {
      setText(this.commentText, text);
      this.commentText.hidden = !text;
    }
  }

  commented() {
    if (!this.board || !this.canEdit) return;
    const node = this.board.node;
    node.comment = this.commentField.value.slice(0, MAX_COMMENT);
    this.board.treeView.buttons.get(node.id)?.classList.toggle('commented', !!node.comment);
    this.changed();
  }

  /** @param {import('./board-draw.js').Shape[]} shapes */
  drawn(shapes) {
    if (!this.board || !this.canEdit) return;
    this.board.node.shapes = shapes;
    this.changed();
  }

  toggleDraw() {
    const on = this.drawButton.getAttribute('aria-pressed') !== 'true';
    this.drawButton.setAttribute('aria-pressed', String(on));
    if (this.board) this.board.board.drawTool = on ? this.drawColor : null;
  }

  /** @param {string} c */
  pickColor(c) {
    this.drawColor = c;
    for (const b of this.swatches) b.setAttribute('aria-pressed', String(b.dataset.drawColor === c));
    if (this.drawButton.getAttribute('aria-pressed') !== 'true') this.toggleDraw();
    else if (this.board) this.board.board.drawTool = c;
  }

  // ---- chapters -------------------------------------------------------------------

  rename() {
    const v = this.chapterName.value.trim();
    if (!v) { this.chapterName.value = this.chapter().name; return; }
    this.chapter().name = v;
    this.renderChapters();
    this.changed();
  }

  /** @param {string} start @param {string} rules */
  addChapter(start, rules) {
    this.chapters.push({ name: t('study.chapterN', { n: this.chapters.length + 1 }), rules, flipped: false, tree: new MoveTree(start), node: null });
    this.openChapter(this.chapters.length - 1);
    this.changed();
  }

  deleteChapter() {
    if (this.chapters.length < 2 || !confirm(t('study.chapterDeleteSure', { name: this.chapter().name }))) return;
    this.chapters.splice(this.current, 1);
    this.current = Math.min(this.current, this.chapters.length - 1);
    const c = this.chapter();
    this.renderChapters();
    this.board?.useTree(c.tree, c.rules, c.flipped, c.node || undefined);
    this.changed();
  }

  // ---- saving ----------------------------------------------------------------------

  body() {
    return this.chapters.map((c) => chapterOf(c.name, c.tree, c.rules, c.flipped));
  }

  /** @param {string} state saved, saving, unsaved or failed @param {string} [why] */
  setState(state, why) {
    this.state.dataset.saveState = state;
    setText(this.state, t(`study.state.${state}`));
    this.state.title = why || '';
    showError(this.error, state === 'failed' ? why || '' : '');
  }

  /** Something the owner changed: saved a moment later. */
  changed() {
    if (!this.canEdit || this.stopped || this.destroyed) return;
    this.pending = true;
    this.setState('unsaved');
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => this.save(), SAVE_DELAY_MS);
  }

  async save() {
    if (this.saving || !this.pending || this.stopped) return;
    this.saving = true;
    this.pending = false;
    this.setState('saving');
    try {
      const r = await studyApi.save(this.id, this.version, this.title, this.body());
      this.version = r.version;
      this.setState(this.pending ? 'unsaved' : 'saved');
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) {
        // Saved elsewhere meanwhile: this page's copy is not written over it.
        this.stopped = true;
        this.setState('failed', t('study.staleReload'));
      } else {
        this.pending = true;
        this.setState('failed', messageOf(e));
      }
    } finally {
      this.saving = false;
    }
    if (this.pending && !this.stopped && this.state.dataset.saveState !== 'failed') this.save();
  }

  // ---- the whole study -----------------------------------------------------------------

  async copy() {
    if (this.board && this.chapters[this.current]) this.chapters[this.current].node = this.board.node;
    try {
      const id = await createStudy(t('study.copyTitle', { title: this.title }).slice(0, MAX_TITLE), this.body());
      location.href = `/study/${encodeURIComponent(id)}`;
    } catch (e) {
      showError(this.error, messageOf(e));
    }
  }

  async deleteStudy() {
    if (!confirm(t('study.deleteSure', { title: this.title }))) return;
    try {
      await studyApi.remove(this.id);
      studyKeys.drop(this.id);
      this.pending = false;
      location.href = this.owner ? '/account' : '/analysis';
    } catch (e) {
      showError(this.error, messageOf(e));
    }
  }
}
