// @ts-check
// A study's data in the page (docs/API.md, "Studies"): its move trees as
// the server keeps them (a flat list of nodes, each naming an earlier one
// as its parent) and back, the edit keys this browser holds for the
// studies it made without an account, and the API's calls.

import { request } from './api.js';
import { MoveTree } from './movetree.js';

/**
 * @typedef {import('./movetree.js').TreeNode} TreeNode
 * @typedef {import('./board-draw.js').Shape} Shape
 * @typedef {{parent?: number, move?: string, comment?: string, shapes?: Shape[], played?: any}} StudyNode
 * @typedef {{name: string, start: string, rules: string, orientation: string, nodes: StudyNode[]}} StudyChapter
 * @typedef {{id: string, title: string, owner: string | null, can_edit: boolean, version: number,
 *   created_ms: number, updated_ms: number, chapters: StudyChapter[], edit_key?: string | null}} Study
 */

const KEY = (/** @type {string} */ id) => `legion:study:${id}`;

/** The edit keys of the studies this browser made without an account. */
export const studyKeys = {
  /** @param {string} id */
  get(id) {
    try { return localStorage.getItem(KEY(id)); } catch { return null; }
  },
  /** @param {string} id @param {string} key */
  set(id, key) {
    try { localStorage.setItem(KEY(id), key); } catch { /* private mode: editable while the page is open */ }
  },
  /** @param {string} id */
  drop(id) {
    try { localStorage.removeItem(KEY(id)); } catch { /* ignore */ }
  },
};

/** A tree as the server keeps it: the nodes in pre-order, each after its parent. @param {MoveTree} tree @returns {StudyNode[]} */
export function treeToNodes(tree) {
  /** @type {StudyNode[]} */
  const out = [];
  /** @type {Map<TreeNode, number>} */
  const index = new Map();
  /** @type {TreeNode[]} */
  const stack = [tree.root];
  while (stack.length) {
    const n = /** @type {TreeNode} */ (stack.pop());
    /** @type {StudyNode} */
    const s = {};
    if (n.parent) { s.parent = index.get(n.parent); s.move = n.move?.canonical; }
    if (n.comment) s.comment = n.comment;
    if (n.shapes && n.shapes.length) s.shapes = n.shapes;
    index.set(n, out.length);
    out.push(s);
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
  return out;
}

/** A tree from the server's nodes (each move `played` as the board needs it). @param {string} start @param {StudyNode[]} nodes */
export function nodesToTree(start, nodes) {
  const tree = new MoveTree(start);
  /** @type {TreeNode[]} */
  const made = [];
  nodes.forEach((n, i) => {
    let node = tree.root;
    const parent = n.parent === undefined ? undefined : made[n.parent];
    if (i > 0 && parent && n.played) node = tree.add(parent, n.played);
    node.comment = n.comment || '';
    node.shapes = n.shapes || [];
    made.push(node);
  });
  return tree;
}

/** A chapter as sent to the server. @param {string} name @param {MoveTree} tree @param {string} rules @param {boolean} flipped @returns {StudyChapter} */
export function chapterOf(name, tree, rules, flipped) {
  return { name, start: tree.root.lfen, rules, orientation: flipped ? 'black' : 'white', nodes: treeToNodes(tree) };
}

const studyPath = (/** @type {string} */ id) => `/api/studies/${encodeURIComponent(id)}`;

export const studyApi = {
  /** @param {string} title @param {StudyChapter[]} chapters @returns {Promise<Study>} */
  create: (title, chapters) => request('POST', '/api/studies', { title, chapters }),
  /** @param {string} id @returns {Promise<Study>} */
  get: (id) => request('GET', studyPath(id), undefined, { token: studyKeys.get(id) }),
  /** @param {string} id @param {number} version @param {string} title @param {StudyChapter[]} chapters @returns {Promise<{version: number, updated_ms: number}>} */
  save: (id, version, title, chapters) => request('PUT', studyPath(id), { version, title, chapters }, { token: studyKeys.get(id) }),
  /** @param {string} id */
  remove: (id) => request('DELETE', studyPath(id), undefined, { token: studyKeys.get(id) }),
  /** @returns {Promise<{studies: {id: string, title: string, created_ms: number, updated_ms: number}[]}>} */
  mine: () => request('GET', '/api/account/studies'),
};

/** Makes a study and keeps its edit key (made without an account); its id. @param {string} title @param {StudyChapter[]} chapters */
export async function createStudy(title, chapters) {
  const s = await studyApi.create(title, chapters);
  if (s.edit_key) studyKeys.set(s.id, s.edit_key);
  return s.id;
}
