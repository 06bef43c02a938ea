// The dashboard's state apart from its data: focus, selections, scroll, filter and mode. A pure
// reducer, so navigation is tested without rendering.

import type { TreeRow } from './tree-model.js';

export type PaneId = 'projects' | 'tree' | 'detail';
export const PANES: PaneId[] = ['projects', 'tree', 'detail'];

export type Mode = { kind: 'normal' } | { kind: 'filter' } | { kind: 'help' } | { kind: 'confirm'; question: string; row: TreeRow };

/** The last action's result, shown in the status rows. */
export interface StatusMessage {
  text: string;
  ok: boolean;
  /** A command to copy (a resume): on rows of its own, whole. */
  command?: string;
  warnings?: string[];
}

export interface UiState {
  focus: PaneId;
  projectIndex: number;
  treeIndex: number;
  detailScroll: number;
  filter: string;
  mode: Mode;
  message?: StatusMessage;
  busy?: string;
}

export type UiAction =
  | { type: 'move'; delta: number; projects: number; rows: number }
  | { type: 'focus'; delta: 1 | -1 }
  | { type: 'mode'; mode: Mode }
  | { type: 'filter-text'; text: string }
  | ({ type: 'message' } & StatusMessage)
  | { type: 'busy'; text?: string }
  | { type: 'clamp'; projects: number; rows: number };

export const INITIAL_STATE: UiState = { focus: 'tree', projectIndex: 0, treeIndex: 0, detailScroll: 0, filter: '', mode: { kind: 'normal' } };

function clampIndex(index: number, length: number): number {
  return Math.max(0, Math.min(index, length - 1));
}

export function reduce(state: UiState, action: UiAction): UiState {
  switch (action.type) {
    case 'move': {
      if (state.focus === 'projects') {
        const projectIndex = clampIndex(state.projectIndex + action.delta, action.projects);
        return projectIndex === state.projectIndex ? state : { ...state, projectIndex, treeIndex: 0, detailScroll: 0 };
      }
      if (state.focus === 'tree') {
        const treeIndex = clampIndex(state.treeIndex + action.delta, action.rows);
        return treeIndex === state.treeIndex ? state : { ...state, treeIndex, detailScroll: 0 };
      }
      return { ...state, detailScroll: Math.max(0, state.detailScroll + action.delta) };
    }
    case 'focus': {
      const next = PANES[(PANES.indexOf(state.focus) + action.delta + PANES.length) % PANES.length];
      return { ...state, focus: next };
    }
    case 'mode':
      return { ...state, mode: action.mode };
    case 'filter-text':
      return { ...state, filter: action.text, projectIndex: 0, treeIndex: 0, detailScroll: 0 };
    case 'message':
      return { ...state, message: { text: action.text, ok: action.ok, command: action.command, warnings: action.warnings }, busy: undefined };
    case 'busy':
      return { ...state, busy: action.text };
    case 'clamp': {
      const projectIndex = clampIndex(state.projectIndex, action.projects);
      const treeIndex = clampIndex(state.treeIndex, action.rows);
      return projectIndex === state.projectIndex && treeIndex === state.treeIndex ? state : { ...state, projectIndex, treeIndex };
    }
  }
}
