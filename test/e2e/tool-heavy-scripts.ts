// The three tool-heavy sessions, scripted the way a model works through a real task in the
// commander project: what it says (short, between tool calls), what it thinks, and which tools it
// calls, several at once where a model would. Paths, line offsets and Edit strings are taken from
// the project on disk, so every tool call succeeds (or fails) as intended when the CLI runs it.

import { join } from 'node:path';
import type { MockBlock } from './mock-api.js';
import type { SessionScript } from './scripted-mock.js';
import { lineOf, sliceOf } from './tool-heavy-project.js';
import { PREFIX_BLOCK_FIXED, PREFIX_BLOCK_V1, SUBCOMMAND_TESTS, SUGGEST_SIMILAR_TEST, SUGGEST_SIMILAR_V1 } from './tool-heavy-fixtures.js';

const text = (t: string): MockBlock => ({ type: 'text', text: t });
const thinking = (t: string): MockBlock => ({ type: 'thinking', thinking: t });
const tool = (name: string, input: Record<string, unknown>): MockBlock => ({ type: 'tool_use', name, input });
const bash = (command: string, description: string) => tool('Bash', { command, description });

type TodoStatus = 'pending' | 'in_progress' | 'completed';
function todos(items: [string, string, TodoStatus][]): MockBlock {
  return tool('TodoWrite', { todos: items.map(([content, activeForm, status]) => ({ content, status, activeForm })) });
}

/** Glob, Grep, Bash and paged Reads of lib/command.js (87 KB) over three prompts; no file is changed. */
export function explorationScript(dir: string): SessionScript {
  const p = (file: string) => join(dir, file);
  const command = p('lib/command.js');
  const at = (start: string) => lineOf(dir, 'lib/command.js', start);
  return {
    name: 'exploration',
    title: 'Explore how commander parses arguments',
    expectedToolErrors: 0,
    invocations: [
      {
        prompt:
          "I'm new to this repo, it's a vendored copy of commander. Walk me through how a command line gets parsed: where does parsing start, and how are options matched to what the user typed?",
        replies: [
          [
            text("I'll get the lay of the land first: which files there are and how big they are."),
            tool('Glob', { pattern: '**/*.js' }),
            bash('wc -l lib/*.js index.js bin/*.js', 'Count lines per source file'),
          ],
          [tool('Read', { file_path: p('package.json') }), tool('Read', { file_path: p('index.js') })],
          [
            text('Almost everything lives in lib/command.js (about 2,800 lines). It is too big to read at once, so I will read it in pages, starting with the class header and constructor.'),
            tool('Read', { file_path: command, offset: 1, limit: 320 }),
          ],
          [tool('Grep', { pattern: '^  (parse|parseAsync|parseOptions|_parseCommand|_prepareUserArgs)\\(', path: command, output_mode: 'content', '-n': true })],
          [
            thinking(
              'parse() at the top calls _prepareUserArgs to strip node and the script path, then _parseCommand. I need to read _prepareUserArgs through parse() in one page, and then parseOptions separately since it is where flags are matched.',
            ),
            tool('Read', { file_path: command, offset: at('  _prepareUserArgs(argv, parseOptions) {') - 30, limit: 160 }),
          ],
          [
            text('`parse()` hands the user arguments to `_parseCommand`. Next, the option matching itself.'),
            tool('Read', { file_path: command, offset: at('  parseOptions(args) {') - 20, limit: 260 }),
          ],
          [tool('Read', { file_path: command, offset: at('  _parseCommand(operands, unknown) {') - 10, limit: 130 })],
          [
            text(
              'Here is the flow:\n\n1. `parse(argv)` calls `_prepareUserArgs`, which drops `node` and the script path (or takes `from: "user"` arguments as they are).\n2. `_parseCommand(operands, unknown)` first runs `parseOptions` on the arguments, which walks them left to right: `--flag value`, `--flag=value`, `-abc` combined short flags and `--` are handled there, known options are looked up with `_findOption`, and anything unknown is collected.\n3. If the first operand names a subcommand, `_dispatchSubcommand` hands the rest over; otherwise it checks required options and arguments, then calls the action handler.\n\nOption values go through `handleOptionValue` (registered in `addOption`), which applies a custom `argParser` and emits `option:<name>` events.',
            ),
          ],
        ],
      },
      {
        prompt: 'How does the help text get built? And where do the "Did you mean" suggestions come from?',
        replies: [
          [tool('Grep', { pattern: 'suggestSimilar|helpInformation|formatHelp', path: p('lib'), output_mode: 'content', '-n': true })],
          [
            text('Help formatting is its own class in lib/help.js; suggestions come from lib/suggestSimilar.js. Reading both.'),
            tool('Read', { file_path: p('lib/help.js') }),
            tool('Read', { file_path: p('lib/suggestSimilar.js') }),
          ],
          [tool('Read', { file_path: command, offset: at('  unknownOption(flag) {') - 5, limit: 90 })],
          [
            text('Let me check the suggestion on a real typo.'),
            bash(
              `node -e "const { Command } = require('./'); const p = new Command('demo').option('--verbose').option('--version-check').exitOverride().configureOutput({ writeErr: () => {} }); try { p.parse(['--verbos'], { from: 'user' }); } catch (e) { console.log(e.code); console.log(e.message); }"`,
              'Trigger an unknown-option error with a typo',
            ),
          ],
          [
            text(
              'Help: `Command.helpInformation()` creates a `Help` object (lib/help.js) and calls `formatHelp(cmd, helper)`, which builds the usage line, description, arguments, options and commands sections; `visibleOptions`, `visibleCommands` and the `wrap`/`boxWrap` helpers decide what shows and how it wraps.\n\nSuggestions: `unknownOption` and `unknownCommand` collect the visible long flags (or command names and aliases) and call `suggestSimilar`, which uses a Damerau-Levenshtein distance capped at 3 and a similarity above 0.4. That is why `--verbos` gets `(Did you mean --verbose?)` above.',
            ),
          ],
        ],
      },
      {
        prompt: "Last thing: what's the history of this repo, and what does each module export?",
        replies: [
          [bash('git log --stat', 'Show commit history with file stats'), bash('grep -rn "^exports\\.\\|^module.exports" lib index.js', 'List module exports')],
          [tool('Read', { file_path: p('lib/option.js') }), tool('Read', { file_path: p('lib/argument.js') }), tool('Read', { file_path: p('lib/error.js') })],
          [tool('Read', { file_path: command, offset: at('  helpInformation(contextOptions) {') - 60, limit: 300 })],
          [
            text(
              'History: two commits, the vendored commander 14.0.3 sources and then `bin/banner.js`, a small example CLI.\n\nExports: `index.js` re-exports everything and adds a default `program`; `lib/command.js` exports `Command`, `lib/option.js` `Option` (plus `DualOptions` and `splitOptionFlags` helpers), `lib/argument.js` `Argument` and `humanReadableArgName`, `lib/help.js` `Help` (and `stripColor`), `lib/error.js` `CommanderError` and `InvalidArgumentError`, and `lib/suggestSimilar.js` `suggestSimilar`.',
            ),
          ],
        ],
      },
    ],
  };
}

/** TodoWrite, multi-line Edits of lib/suggestSimilar.js, a Write of a 3 KB test file, a failing and a green `node --test`. */
export function editScript(dir: string): SessionScript {
  const p = (file: string) => join(dir, file);
  const original = sliceOf(dir, 'lib/suggestSimilar.js', '/**\n * Find close matches', 'exports.suggestSimilar');
  const testFile = p('test/suggest-similar.test.js');
  const plan = (states: TodoStatus[]) =>
    todos(
      (
        [
          ['Read suggestSimilar and how the parser calls it', 'Reading suggestSimilar and its callers'],
          ['Add prefix matching to suggestSimilar', 'Adding prefix matching to suggestSimilar'],
          ['Write node:test tests for suggestions', 'Writing node:test tests for suggestions'],
          ['Run the tests and fix failures', 'Running the tests and fixing failures'],
        ] as [string, string][]
      ).map(([c, a], i) => [c, a, states[i]]),
    );
  const keepQuiet = SUGGEST_SIMILAR_TEST.slice(SUGGEST_SIMILAR_TEST.indexOf("  it('keeps quiet"));
  return {
    name: 'edit',
    title: 'Prefix matching for option suggestions',
    // the first `node --test`
    expectedToolErrors: 1,
    invocations: [
      {
        prompt:
          'Typos in option names only get a suggestion when the edit distance is small, so `--dry` gets nothing even though `--dry-run` exists. Make suggestSimilar also suggest candidates the typed word is a prefix of (list all of them when it is ambiguous), and add tests with node:test.',
        replies: [
          [
            thinking('Suggestion logic is in lib/suggestSimilar.js. Prefix matching should only kick in when edit distance finds nothing, otherwise existing suggestions change. Plan it, then read.'),
            text("I'll plan this and then read the current implementation."),
            plan(['pending', 'pending', 'pending', 'pending']),
          ],
          [
            plan(['in_progress', 'pending', 'pending', 'pending']),
            tool('Read', { file_path: p('lib/suggestSimilar.js') }),
            tool('Grep', { pattern: 'suggestSimilar\\(', path: p('lib'), output_mode: 'content', '-n': true, '-C': 3 }),
          ],
          [
            text('The distance check exits early when lengths differ by more than 3, which is why `--dry` never reaches `--dry-run`. I will add a prefix fallback after the distance loop.'),
            plan(['completed', 'in_progress', 'pending', 'pending']),
            tool('Edit', {
              file_path: p('lib/suggestSimilar.js'),
              old_string: 'const maxDistance = 3;\n',
              new_string: 'const maxDistance = 3;\n// Shortest word taken as an abbreviation of a longer candidate.\nconst minPrefixLength = 2;\n',
            }),
          ],
          [tool('Edit', { file_path: p('lib/suggestSimilar.js'), old_string: original, new_string: SUGGEST_SIMILAR_V1 })],
          [plan(['completed', 'completed', 'in_progress', 'pending']), tool('Write', { file_path: testFile, content: SUGGEST_SIMILAR_TEST })],
          [plan(['completed', 'completed', 'completed', 'in_progress']), bash('node --test test/', 'Run the node:test suite')],
          [
            text('One failure: an ambiguous prefix suggests nothing, because my fallback only takes a single match. The request was to list all of them.'),
            tool('Edit', { file_path: p('lib/suggestSimilar.js'), old_string: PREFIX_BLOCK_V1, new_string: PREFIX_BLOCK_FIXED }),
          ],
          [bash('node --test test/', 'Re-run the node:test suite')],
          [plan(['completed', 'completed', 'completed', 'completed']), bash('git status --short && git diff --stat', 'Show what changed')],
          [
            text(
              'Done. `suggestSimilar` now falls back to prefix matching when no candidate is within edit distance: `--dry` suggests `--dry-run`, and an ambiguous prefix lists every match. test/suggest-similar.test.js covers both paths and the parser errors; all 11 tests pass.',
            ),
          ],
        ],
      },
      {
        prompt: 'Nice. Does it also work for options of subcommands, where the global options are candidates too? Add tests for that.',
        replies: [
          [text('The candidates for a subcommand include the parent options, so it should. Adding tests to check.'), tool('Read', { file_path: testFile })],
          [tool('Edit', { file_path: testFile, old_string: keepQuiet, new_string: `${keepQuiet}${SUBCOMMAND_TESTS}` })],
          [bash('node --test test/', 'Run the node:test suite')],
          [text('Yes: all 14 tests pass. A subcommand flag is matched against its own options and the global ones, so `publish-docs --dr` lists both `--draft` and `--dry-run`.')],
        ],
      },
    ],
  };
}

/** A crash (non-zero exit), Read and Grep to find the cause, an Edit fix, re-runs, and a commit. */
export function debuggingScript(dir: string): SessionScript {
  const p = (file: string) => join(dir, file);
  const banner = p('bin/banner.js');
  const broken = sliceOf(dir, 'bin/banner.js', "const { program } = require('..');", "  .option('-c, --char");
  const fixed = `const { program, InvalidArgumentError } = require('..');

// Not parseInt itself: commander calls a parser with (value, previousValue), and parseInt would
// take the previous value (the default, 80) as its radix and return NaN.
function parseWidth(value) {
  const width = Number.parseInt(value, 10);
  if (Number.isNaN(width) || width < 10) {
    throw new InvalidArgumentError('Expected a whole number of columns, at least 10.');
  }
  return width;
}

program
  .name('banner')
  .description('print text framed in a box')
  .argument('<words...>', 'text to print')
  .option('-w, --width <columns>', 'width of the box', parseWidth, 80)
`;
  return {
    name: 'debugging',
    title: 'Fix banner --width crash',
    // the crash reproduced, and `--width abc` rejected after the fix
    expectedToolErrors: 2,
    invocations: [
      {
        prompt: '`node bin/banner.js --width 40 hello` crashes with "RangeError: Invalid array length", without --width it works. Can you find out why and fix it?',
        replies: [
          [text('Let me reproduce it first.'), bash('node bin/banner.js --width 40 hello', 'Reproduce the crash')],
          [tool('Read', { file_path: banner })],
          [
            thinking(
              'options.width must be NaN or negative. It comes from parseInt used as the argParser. Commander calls custom parsers with (value, previous), so parseInt receives 80 as radix. Confirm with the option code.',
            ),
            text('`new Array(options.width + 1)` only throws for NaN or a negative length, so the width parser is the suspect. Checking how commander calls it.'),
            tool('Grep', { pattern: '_callParseArg|parseArg\\(', path: p('lib'), output_mode: 'content', '-n': true }),
          ],
          [tool('Read', { file_path: p('lib/command.js'), offset: lineOf(dir, 'lib/command.js', '  _callParseArg(target, value, previous, invalidArgumentMessage) {') - 12, limit: 120 })],
          [bash(`node -e "console.log(parseInt('40', 80), parseInt('40', undefined))"`, 'Show parseInt with the default as radix')],
          [
            text(
              'Found it: commander calls the parser as `parseArg(value, previous)`, and for the first `--width` the previous value is the default 80, so `parseInt("40", 80)` is NaN (radix above 36). I will use a parser that fixes the radix to 10 and rejects bad input.',
            ),
            tool('Edit', { file_path: banner, old_string: broken, new_string: fixed }),
          ],
          [bash('node bin/banner.js --width 40 hello', 'Re-run with --width 40'), bash('node bin/banner.js --width abc hello', 'Check the error for an invalid width')],
          [text('Fixed. `--width 40` now prints a 40-column box, and `--width abc` gets a clear commander error (exit 1) instead of a RangeError.')],
        ],
      },
      {
        prompt: 'Great, please commit that.',
        replies: [
          [bash('git status --short', 'Show working tree status'), bash('git diff', 'Show the change')],
          [bash('git add bin/banner.js && git commit -q -m "banner: parse --width in base 10 and reject invalid widths" && git log --oneline -3', 'Commit the fix')],
          [text('Committed as "banner: parse --width in base 10 and reject invalid widths".')],
        ],
      },
    ],
  };
}
