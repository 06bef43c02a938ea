// File contents the edit-heavy session writes: the first (buggy) prefix-matching version of
// commander's suggestSimilar, its fix, and the node:test file that finds the bug.

/** The prefix block of the first version (an Edit's old_string, so it must match the file exactly). */
export const PREFIX_BLOCK_V1 = `  // Too far apart for an edit, but maybe an abbreviation: suggest the one candidate it starts.
  if (similar.length === 0 && word.length >= minPrefixLength) {
    const prefixed = candidates.filter(
      (candidate) => candidate.length > word.length && candidate.startsWith(word),
    );
    if (prefixed.length === 1) similar = prefixed;
  }
`;
/** suggestSimilar with prefix matching, first version: an ambiguous prefix suggests nothing. */
export const SUGGEST_SIMILAR_V1 = `/**
 * Find close matches, restricted to same number of edits. When nothing is close by edit
 * distance, a candidate the word is a prefix of is suggested instead (\`--dry\` for \`--dry-run\`).
 *
 * @param {string} word
 * @param {string[]} candidates
 * @returns {string}
 */

function suggestSimilar(word, candidates) {
  if (!candidates || candidates.length === 0) return '';
  // remove possible duplicates
  candidates = Array.from(new Set(candidates));

  const searchingOptions = word.startsWith('--');
  if (searchingOptions) {
    word = word.slice(2);
    candidates = candidates.map((candidate) => candidate.slice(2));
  }

  let similar = [];
  let bestDistance = maxDistance;
  const minSimilarity = 0.4;
  candidates.forEach((candidate) => {
    if (candidate.length <= 1) return; // no one character guesses

    const distance = editDistance(word, candidate);
    const length = Math.max(word.length, candidate.length);
    const similarity = (length - distance) / length;
    if (similarity > minSimilarity) {
      if (distance < bestDistance) {
        // better edit distance, throw away previous worse matches
        bestDistance = distance;
        similar = [candidate];
      } else if (distance === bestDistance) {
        similar.push(candidate);
      }
    }
  });

${PREFIX_BLOCK_V1}
  similar.sort((a, b) => a.localeCompare(b));
  if (searchingOptions) {
    similar = similar.map((candidate) => \`--\${candidate}\`);
  }

  if (similar.length > 1) {
    return \`\\n(Did you mean one of \${similar.join(', ')}?)\`;
  }
  if (similar.length === 1) {
    return \`\\n(Did you mean \${similar[0]}?)\`;
  }
  return '';
}

`;

/** What the fix replaces the prefix block with. */
export const PREFIX_BLOCK_FIXED = `  // Too far apart for an edit, but maybe an abbreviation: suggest every candidate it starts,
  // so an ambiguous prefix lists all of them (sorted below) instead of suggesting nothing.
  if (similar.length === 0 && word.length >= minPrefixLength) {
    similar = candidates.filter(
      (candidate) => candidate.length > word.length && candidate.startsWith(word),
    );
  }
`;

/** test/suggest-similar.test.js: fails once on the first version (ambiguous prefix), green after the fix. */
export const SUGGEST_SIMILAR_TEST = `// Suggestions for mistyped options and commands: edit distance first, then unambiguous
// or ambiguous prefixes ("--dry" for "--dry-run"), both through suggestSimilar and the parser.
const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const { suggestSimilar } = require('../lib/suggestSimilar.js');
const { Command } = require('..');

describe('suggestSimilar by edit distance', () => {
  it('suggests the closest option for a typo', () => {
    assert.equal(suggestSimilar('--verbos', ['--verbose', '--version']), '\\n(Did you mean --verbose?)');
  });

  it('lists every candidate at the same best distance, sorted', () => {
    assert.equal(suggestSimilar('--sat', ['--cat', '--bat', '--help']), '\\n(Did you mean one of --bat, --cat?)');
  });

  it('suggests nothing for an unrelated word', () => {
    assert.equal(suggestSimilar('--zzz', ['--verbose', '--output']), '');
  });
});

describe('suggestSimilar by prefix', () => {
  it('suggests the one option the word abbreviates', () => {
    assert.equal(suggestSimilar('--dry', ['--dry-run', '--output', '--help']), '\\n(Did you mean --dry-run?)');
  });

  it('suggests the one command the word abbreviates', () => {
    assert.equal(suggestSimilar('publ', ['publish-docs', 'build', 'list']), '\\n(Did you mean publish-docs?)');
  });

  it('lists every candidate when the prefix is ambiguous', () => {
    assert.equal(
      suggestSimilar('--dry', ['--dry-run', '--dry-mode', '--help']),
      '\\n(Did you mean one of --dry-mode, --dry-run?)',
    );
  });

  it('does not guess from a single character', () => {
    assert.equal(suggestSimilar('--d', ['--dry-run', '--help']), '');
  });

  it('prefers an edit-distance match over a prefix match', () => {
    assert.equal(suggestSimilar('--out', ['--output-format', '--put']), '\\n(Did you mean --put?)');
  });
});

function parseError(configure, argv) {
  const program = new Command('tool');
  program.exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
  configure(program);
  try {
    program.parse(argv, { from: 'user' });
  } catch (error) {
    return error;
  }
  assert.fail(\`parsing \${argv.join(' ')} did not fail\`);
}

describe('parser errors', () => {
  it('suggests the option an unknown flag abbreviates', () => {
    const error = parseError((p) => p.option('--dry-run').option('--output <file>'), ['--dry']);
    assert.equal(error.code, 'commander.unknownOption');
    assert.match(error.message, /\\(Did you mean --dry-run\\?\\)/);
  });

  it('suggests the subcommand an unknown command abbreviates', () => {
    const error = parseError((p) => {
      p.command('publish-docs').action(() => {});
      p.command('list').action(() => {});
    }, ['publ']);
    assert.equal(error.code, 'commander.unknownCommand');
    assert.match(error.message, /\\(Did you mean publish-docs\\?\\)/);
  });

  it('keeps quiet when suggestions are turned off', () => {
    const error = parseError((p) => p.showSuggestionAfterError(false).option('--dry-run'), ['--dry']);
    assert.doesNotMatch(error.message, /Did you mean/);
  });
});
`;

/** Tests the second prompt of the edit-heavy session appends to the test file: suggestions for subcommand options. */
export const SUBCOMMAND_TESTS = `
describe('subcommand options', () => {
  function publishProgram(p) {
    p.option('--dry-run', 'print what would happen');
    p.command('publish-docs')
      .option('--output-dir <dir>', 'where to write the site')
      .option('--base-url <url>', 'URL the site is served from')
      .action(() => {});
  }

  it('suggests a global option that a subcommand flag abbreviates', () => {
    const error = parseError(publishProgram, ['publish-docs', '--dry']);
    assert.equal(error.code, 'commander.unknownOption');
    assert.match(error.message, /\\(Did you mean --dry-run\\?\\)/);
  });

  it("suggests the subcommand's own option", () => {
    const error = parseError(publishProgram, ['publish-docs', '--output']);
    assert.match(error.message, /\\(Did you mean --output-dir\\?\\)/);
  });

  it('lists both when the prefix matches a global and a local option', () => {
    const error = parseError((p) => {
      publishProgram(p);
      p.commands[0].option('--draft', 'include drafts');
    }, ['publish-docs', '--dr']);
    assert.match(error.message, /\\(Did you mean one of --draft, --dry-run\\?\\)/);
  });
});
`;
