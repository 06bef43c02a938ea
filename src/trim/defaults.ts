// Fields a tool call or result carries at the value the API or the tool's own schema takes when
// the field is absent: they say nothing, and the request is the same without them. Kept as data
// (STYLE: rules with id / why / examples); pure.

type Json = Record<string, unknown>;

export interface DefaultValueRule {
  id: string;
  /** The block type and, for a tool_use, the tool whose input carries the field. */
  block: 'tool_result' | 'tool_use';
  tools?: readonly string[];
  field: string;
  value: unknown;
  why: string;
  example: string;
}

export const DEFAULT_VALUE_RULES: readonly DefaultValueRule[] = [
  {
    id: 'result.not-an-error',
    block: 'tool_result',
    field: 'is_error',
    value: false,
    why: 'the Messages API reads a tool_result without is_error as not an error; Claude Code records `is_error: false` on Bash results only (2.0.x-2.1.x logs of both corpora, 321 results in the 17 long tool-heavy logs), ~5 tokens each',
    example: '{"type":"tool_result","tool_use_id":"toolu_…","content":"…","is_error":false} -> without is_error',
  },
  {
    id: 'edit.replace-once',
    block: 'tool_use',
    tools: ['Edit', 'MultiEdit'],
    field: 'replace_all',
    value: false,
    why: "the Edit tool's schema gives replace_all the default false (replace the one occurrence); the call means the same without it, ~6 tokens an edit",
    example: '{"file_path":"…","old_string":"…","new_string":"…","replace_all":false} -> without replace_all',
  },
];

function dropField(target: Json | null | undefined, rule: DefaultValueRule): number {
  if (!target || typeof target !== 'object' || !(rule.field in target) || target[rule.field] !== rule.value) return 0;
  delete target[rule.field];
  return 1;
}

/** Drops the fields of a content block that sit at their default value; returns how many. */
export function dropDefaultValues(block: Json): number {
  let dropped = 0;
  for (const rule of DEFAULT_VALUE_RULES) {
    if (block.type !== rule.block) continue;
    if (rule.block === 'tool_result') {
      dropped += dropField(block, rule);
      continue;
    }
    if (!rule.tools?.includes(String(block.name)) || !block.input || typeof block.input !== 'object') continue;
    const input = block.input as Json;
    dropped += dropField(input, rule);
    if (block.name === 'MultiEdit' && Array.isArray(input.edits)) for (const edit of input.edits) dropped += dropField(edit as Json, rule);
  }
  return dropped;
}
