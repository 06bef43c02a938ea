// The JSON text of a value read from a log, as the API would see it. JSON.parse reads nesting of
// any depth but JSON.stringify overflows its stack on it (a tool input nested 10,000 deep): such a
// value is written out without recursion instead, to the same text.

/** JSON.stringify(value), or the same text built iteratively when the value nests too deep for it. */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return jsonTextIterative(value);
  }
}

type Frame = { items: [string | undefined, unknown][]; at: number; close: string };

function scalarText(value: unknown): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
      return JSON.stringify(value);
    case 'object':
      return undefined;
    default:
      return undefined; // undefined, functions and symbols are left out, as JSON.stringify leaves them
  }
}

function open(value: object): Frame {
  if (Array.isArray(value)) return { items: value.map((v) => [undefined, v === undefined ? null : v]), at: 0, close: ']' };
  const items: [string, unknown][] = [];
  for (const [key, v] of Object.entries(value)) if (v !== undefined && typeof v !== 'function') items.push([key, v]);
  return { items, at: 0, close: '}' };
}

function jsonTextIterative(root: unknown): string {
  const parts: string[] = [];
  const stack: Frame[] = [];
  const emit = (value: unknown) => {
    const scalar = scalarText(value);
    if (scalar !== undefined || value === null || typeof value !== 'object') {
      parts.push(scalar ?? 'null');
      return;
    }
    parts.push(Array.isArray(value) ? '[' : '{');
    stack.push(open(value));
  };
  emit(root);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    if (frame.at === frame.items.length) {
      parts.push(frame.close);
      stack.pop();
      continue;
    }
    const [key, value] = frame.items[frame.at];
    if (frame.at > 0) parts.push(',');
    frame.at++;
    if (key !== undefined) parts.push(`${JSON.stringify(key)}:`);
    emit(value);
  }
  return parts.join('');
}
