// The projects pane: one row per project, the live ones marked.

import { memo } from 'react';
import type { ProjectGroup } from '../data/projects.js';
import { ago, clipLeft, line, pad, type Line } from '../lines.js';
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
    // A whole path when it fits, else its last folder: "tally" says more than "…es/tally".
    const label = p.label.length <= room ? p.label : clipLeft(p.label.split('/').filter(Boolean).pop() ?? p.label, room);
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
