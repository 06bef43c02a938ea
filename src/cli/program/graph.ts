// `cmv graph`: the session knowledge graph.

import { Output } from '../output.js';
import type { GraphCommandOptions } from '../commands/graph.js';
import { command, jsonOption, sessionArgument, type Run } from './shared-options.js';

export const graph = (run: Run) =>
  command('graph', 'the session knowledge graph: goal, tasks, decisions, files, errors, tests, agents and their links', [
    'cmv graph latest',
    'cmv graph 3f2a --explain',
    'cmv graph 3f2a --json',
    'cmv graph 3f2a --dot | dot -Tsvg > graph.svg',
    'cmv graph 3f2a --mermaid',
  ])
    .addArgument(sessionArgument())
    .addOption(jsonOption('print the graph as JSON ({nodes, edges})'))
    .option('--dot', 'print Graphviz DOT')
    .option('--mermaid', 'print a Mermaid flowchart')
    .option('--explain', 'name the rule behind each node, and what each rule matches and why')
    .action((session: string, opts: GraphCommandOptions) => run(async () => (await import('../commands/graph.js')).graphCommand(session, opts, new Output(opts))));
