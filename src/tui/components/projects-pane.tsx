// The projects pane: one row per project, the live ones marked.

import { memo } from 'react';
import type { ProjectGroup } from '../data/projects.js';
import { ago, clip, clipLeft, line, pad, type Line } from '../lines.js';
import { LineView } from './line-view.js';
import { Pane, windowStart } from './pane.js';

export interface ProjectsPaneProps {
  projects: ProjectGroup[];
  selected: number;
  focused: boolean;
  width: number;
  height: number;
  now: number;
}

const lastFolder = (path: string) => path.split('/').filter(Boolean).pop() ?? path;

/**
 * A whole path when it fits, else the ending that tells it from the other projects; narrower
 * still, its last folder when no other project has it, else the head of that ending (where the
 * projects differ: "alpha…", "beta/…"), never the same "…/cli" twice.
 */
function fitLabel(p: ProjectGroup, projects: ProjectGroup[], room: number): string {
  if (p.label.length <= room) return p.label;
  const short = p.short || p.label;
  if (short.length <= room) return short;
  const last = lastFolder(p.label);
  if (projects.every((o) => o === p || lastFolder(o.label) !== last)) return clipLeft(last, room);
  return clip(short, room);
}

export function projectLines({ projects, selected, width, height, now }: ProjectsPaneProps): Line[] {
  const inner = width - 4;
  const visible = Math.max(1, height - 3);
  const start = windowStart(selected, projects.length, visible);
  if (projects.length === 0) return [line('p:none', { text: 'no sessions found', dim: true })];
  return projects.slice(start, start + visible).map((p, i) => {
    const index = start + i;
    const mark = index === selected ? '›' : ' ';
    const when = ago(p.lastModifiedMs, now).padStart(4);
    const room = Math.max(4, inner - 12);
    const label = fitLabel(p, projects, room);
    const text = `${mark}${p.live ? '●' : ' '} ${pad(label, room)} ${String(p.sessions.length).padStart(3)} ${when}`;
    return line(`p:${p.key}`, { text, inverse: index === selected, color: p.live ? 'green' : undefined });
  });
}

export const ProjectsPane = memo(function ProjectsPane(props: ProjectsPaneProps) {
  return (
    <Pane title={`Projects (${props.projects.length})`} focused={props.focused} width={props.width} height={props.height}>
      <LineView lines={projectLines(props)} width={props.width - 4} />
    </Pane>
  );
});
