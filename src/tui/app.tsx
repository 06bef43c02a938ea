// The dashboard: projects, the session tree of the selected project, and the detail of the
// selection, polled for changes. Keys go through keymap.ts to intents, state through state.ts.

import { plural } from '../text/quantities.js';
import { useEffect, useMemo, useReducer, useRef } from 'react';
import { Box, Text, useApp, useInput } from 'ink';
import type { DashboardSources } from './sources.js';
import { INITIAL_STATE, reduce, type UiState } from './state.js';
import { intentOf, splitKeys, type Intent, type KeyMode } from './keymap.js';
import { filterProjects, groupByProject } from './data/projects.js';
import { buildTree, type TreeRow } from './tree-model.js';
import { usePoll } from './hooks/use-poll.js';
import { useDetail } from './hooks/use-detail.js';
import { useTerminalSize, type TerminalSize } from './hooks/use-terminal-size.js';
import { ProjectsPane } from './components/projects-pane.js';
import { SessionTree } from './components/session-tree.js';
import { DetailPane } from './components/detail-pane.js';
import { HelpOverlay } from './components/help-overlay.js';
import { StatusBar, statusRows } from './components/status-bar.js';
import { clipLeft } from './lines.js';
import type { ActionResult } from './data/actions.js';

/** What the dashboard leaves behind when it closes: a session to resume, if one was chosen. */
export interface DashboardExit {
  resume?: { cwd?: string; sessionId: string; path: string };
  /** Commands the actions suggested (trims into new sessions), printed after exit. */
  notes: string[];
}

export interface AppProps {
  sources: DashboardSources;
  pollMs: number;
  onExit: (result: DashboardExit) => void;
  /** A fixed size (tests); else the terminal's, following resizes. */
  size?: TerminalSize;
  now?: () => number;
}

function layout(size: TerminalSize, focus: UiState['focus'], statusRows: number) {
  // One row for the title, the status rows, and one spare: a frame as tall as the terminal makes
  // Ink clear the whole screen on every render.
  const height = Math.max(8, size.rows - 2 - statusRows);
  const width = size.columns;
  if (width >= 100) {
    const projects = Math.min(34, Math.floor(width * 0.22));
    const tree = Math.min(56, Math.floor(width * 0.34));
    return { height, projects, tree, detail: width - projects - tree };
  }
  // Narrow: the projects pane only while it has the focus.
  const side = Math.floor(width * 0.45);
  return focus === 'projects' ? { height, projects: side, tree: 0, detail: width - side } : { height, projects: 0, tree: side, detail: width - side };
}

export function App({ sources, pollMs, onExit, size: fixedSize, now = Date.now }: AppProps) {
  const { exit } = useApp();
  const size = useTerminalSize(fixedSize);
  const [ui, dispatchUi] = useReducer(reduce, INITIAL_STATE);
  // Keys can arrive faster than renders: each key must see the state the previous key left, so
  // the handler reads this copy, which every dispatch updates at once.
  const live = useRef<UiState>(INITIAL_STATE);
  const dispatch = (action: Parameters<typeof reduce>[1]) => {
    live.current = reduce(live.current, action);
    dispatchUi(action);
  };
  const data = usePoll(sources, pollMs);
  const notes = useMemo<string[]>(() => [], []);

  const projects = useMemo(() => filterProjects(groupByProject(data.sessions), ui.filter), [data.sessions, ui.filter]);
  const project = projects[ui.projectIndex];
  const snapshotList = data.snapshots.state === 'ready' ? data.snapshots.value : [];
  const rows = useMemo<TreeRow[]>(() => (project ? buildTree({ sessions: project.sessions, snapshots: snapshotList, trims: data.trims }) : []), [project, data.snapshots, data.trims]);
  const row = rows[ui.treeIndex];
  const session = row?.kind === 'session' ? row.session : undefined;
  const detail = useDetail(sources, session?.path, session ? session.bytes : 0);

  useEffect(() => dispatch({ type: 'clamp', projects: projects.length, rows: rows.length }), [projects.length, rows.length]);

  const finish = (result: Omit<DashboardExit, 'notes'>) => {
    onExit({ ...result, notes });
    exit();
  };

  const act = (busy: string, run: () => Promise<ActionResult>, resumeAfter = false) => {
    dispatch({ type: 'busy', text: busy });
    void run().then((r) => {
      if (resumeAfter && r.ok && r.resume) return finish({ resume: r.resume });
      if (r.resumeCommand) notes.push(r.resumeCommand);
      dispatch({ type: 'message', text: r.message, ok: r.ok, command: r.resumeCommand, warnings: r.warnings });
      data.refresh();
    });
  };

  // Ink calls the input handler registered by an effect, which may lag the frame on screen: the
  // handler reads the data of the latest render from here, and the selection from `live`.
  const view = useRef({ projects, rows, snapshots: snapshotList });
  view.current = { projects, rows, snapshots: snapshotList };

  const handle = (intent: Intent) => {
    const ui = live.current;
    const mode = ui.mode;
    const { projects, rows, snapshots } = view.current;
    const row = rows[ui.treeIndex];
    const session = row?.kind === 'session' ? row.session : undefined;
    if (mode.kind === 'help') return intent.kind === 'quit' ? finish({}) : dispatch({ type: 'mode', mode: { kind: 'normal' } });
    if (mode.kind === 'confirm') {
      dispatch({ type: 'mode', mode: { kind: 'normal' } });
      if (intent.kind !== 'yes') return dispatch({ type: 'message', text: 'nothing deleted', ok: true });
      const target = mode.row;
      if (target.kind === 'session') {
        // A resume command noted earlier in the run for this session would now name nothing.
        const id = target.session.id;
        return act('deleting', async () => {
          const result = await sources.deleteSession(target.session.path);
          if (result.ok) notes.splice(0, notes.length, ...notes.filter((n) => !n.includes(id)));
          return result;
        });
      }
      if (target.kind === 'snapshot') return act('deleting', () => sources.deleteSnapshot(target.snapshot.name));
      return;
    }
    if (mode.kind === 'filter') {
      if (intent.kind === 'type') return dispatch({ type: 'filter-text', text: ui.filter + intent.text });
      if (intent.kind === 'erase') return dispatch({ type: 'filter-text', text: ui.filter.slice(0, -1) });
      if (intent.kind === 'escape') dispatch({ type: 'filter-text', text: '' });
      if (intent.kind === 'move') return dispatch({ type: 'move', delta: intent.delta, projects: projects.length, rows: rows.length });
      if (intent.kind === 'escape' || intent.kind === 'enter') return dispatch({ type: 'mode', mode: { kind: 'normal' } });
      return;
    }
    switch (intent.kind) {
      case 'quit':
        return finish({});
      case 'move':
        return dispatch({ type: 'move', delta: intent.delta, projects: projects.length, rows: rows.length });
      case 'focus':
        return dispatch({ type: 'focus', delta: intent.delta });
      case 'help':
        return dispatch({ type: 'mode', mode: { kind: 'help' } });
      case 'filter':
        return dispatch({ type: 'mode', mode: { kind: 'filter' } });
      case 'escape':
        return ui.filter ? dispatch({ type: 'filter-text', text: '' }) : undefined;
      case 'enter':
        if (ui.focus === 'projects') return dispatch({ type: 'focus', delta: 1 });
        if (session) return finish({ resume: { cwd: session.cwd, sessionId: session.id, path: session.path } });
        if (row?.kind === 'snapshot') return act('branching', () => sources.branch(row.snapshot.name), true);
        return;
      case 'snapshot':
        return session ? act('taking a snapshot', () => sources.snapshot(session.path)) : dispatch({ type: 'message', text: 'select a session to snapshot', ok: false });
      case 'trim':
        return session ? act('trimming', () => sources.trim(session.path)) : dispatch({ type: 'message', text: 'select a session to trim', ok: false });
      case 'branch': {
        if (row?.kind === 'snapshot') return act('branching', () => sources.branch(row.snapshot.name));
        if (!session) return dispatch({ type: 'message', text: 'select a snapshot (◆), or a session that has one, to branch', ok: false });
        // On a session: its newest snapshot, or say how to get one.
        const newest = snapshots.filter((n) => n.kind === 'snapshot' && n.sessionId === session.id).sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''))[0];
        if (newest) return act(`branching ${newest.name}`, () => sources.branch(newest.name));
        return dispatch({ type: 'message', text: `session ${session.id.slice(0, 8)} has no snapshot to branch: press s to take one, then b`, ok: false });
      }
      case 'delete':
        if (row?.kind === 'session') return dispatch({ type: 'mode', mode: { kind: 'confirm', question: `Delete session ${row.session.id.slice(0, 8)}? (moved to cmv's trash)`, row } });
        if (row?.kind === 'snapshot') return dispatch({ type: 'mode', mode: { kind: 'confirm', question: `Delete snapshot ${row.snapshot.name}?`, row } });
        return dispatch({ type: 'message', text: 'select a session or a snapshot to delete', ok: false });
      default:
        return;
    }
  };

  useInput((input, key) => {
    for (const [one, oneKey] of splitKeys(input, key)) handle(intentOf(one, oneKey, live.current.mode.kind as KeyMode));
  });

  // The status rows first: a result, its command and warnings are shown whole, the panes get the rest.
  const status = statusRows({ mode: ui.mode, filter: ui.filter, message: ui.message, busy: ui.busy, width: size.columns }).slice(0, Math.max(1, size.rows - 10));
  const box = layout(size, ui.focus, status.length);
  const clock = now();
  const snapshotsNote = data.snapshots.state === 'unavailable' ? 'snapshots: not available' : data.snapshots.state === 'error' ? `snapshots: ${data.snapshots.message}` : undefined;
  return (
    <Box flexDirection="column" width={size.columns} height={size.rows - 1}>
      <Text wrap="truncate">
        <Text bold color="cyan">
          cmv
        </Text>
        <Text
          dimColor
        >{` ${data.loaded ? `${plural(data.sessions.length, 'session')}, ${data.sessions.filter((s) => s.live).length} live` : 'looking for sessions…'}${ui.filter ? ` · filter "${ui.filter}"` : ''}`}</Text>
      </Text>
      {ui.mode.kind === 'help' ? (
        <HelpOverlay width={size.columns} height={box.height} />
      ) : (
        <Box flexDirection="row" height={box.height}>
          {box.projects > 0 && <ProjectsPane projects={projects} selected={ui.projectIndex} focused={ui.focus === 'projects'} width={box.projects} height={box.height} now={clock} />}
          {box.tree > 0 && (
            <SessionTree
              title={project ? `Sessions · ${clipLeft(project.short || project.label, box.tree - 6 - 'Sessions · '.length)}` : 'Sessions'}
              rows={rows}
              selected={ui.treeIndex}
              focused={ui.focus === 'tree'}
              width={box.tree}
              height={box.height}
              now={clock}
              snapshotsNote={snapshotsNote}
            />
          )}
          <DetailPane
            row={row}
            detail={detail.detail}
            breakEven={detail.breakEven}
            graph={detail.graph}
            scroll={ui.detailScroll}
            focused={ui.focus === 'detail'}
            width={box.detail}
            height={box.height}
          />
        </Box>
      )}
      <StatusBar rows={status} />
    </Box>
  );
}
