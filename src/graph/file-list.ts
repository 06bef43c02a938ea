// File lists written the way a shell expands them: paths that share folders share them once
// ("api/{auth,models}.py", "src/{db/schema.ts,sync/engine.ts}"), in the order first named.

interface PathNode {
  name: string;
  /** A folder on the way to a path, as opposed to the path's own last part. */
  dir: boolean;
  children: PathNode[];
}

/** Paths as one brace-expansion list; plain and comma-separated when a path holds a space or a brace. */
export function fileList(paths: string[]): string {
  if (paths.some((p) => /\s/.test(p))) return paths.join(', ');
  if (paths.some((p) => /[{},]/.test(p))) return paths.join(' ');
  const root: PathNode = { name: '', dir: true, children: [] };
  for (const path of paths) {
    const folder = path.endsWith('/');
    const parts = path.replace(/\/+$/, '').split('/');
    // A folder keeps its slash, so "lib/" (a folder) and "lib/x.ts" (inside it) stay apart.
    if (folder) parts[parts.length - 1] += '/';
    let node = root;
    parts.forEach((name, i) => {
      const dir = i < parts.length - 1;
      let child = dir ? node.children.find((c) => c.dir && c.name === name) : undefined;
      if (!child) {
        child = { name, dir, children: [] };
        node.children.push(child);
      }
      node = child;
    });
  }
  return root.children.map(renderNode).join(' ');
}

function renderNode(node: PathNode): string {
  if (!node.dir) return node.name;
  if (node.children.length === 1) return `${node.name}/${renderNode(node.children[0])}`;
  const parts = node.children.map(renderNode);
  // "{main,auth,models}.py": one extension shared by every file of the group.
  const ext = /(\.[A-Za-z0-9]+)$/.exec(parts[0])?.[1];
  if (ext && node.children.every((c) => !c.dir) && parts.every((p) => p.endsWith(ext) && p.length > ext.length && !p.slice(0, -ext.length).endsWith('.'))) {
    return `${node.name}/{${parts.map((p) => p.slice(0, -ext.length)).join(',')}}${ext}`;
  }
  return `${node.name}/{${parts.join(',')}}`;
}

/** The paths a `fileList` line stands for, in order: "api/{auth,models}.py" -> api/auth.py, api/models.py. */
export function expandFileList(list: string): string[] {
  if (/,\s/.test(list)) return list.split(', ');
  const out: string[] = [];
  for (const word of splitTop(list, ' ')) out.push(...expand(word));
  return out;
}

function expand(word: string): string[] {
  const open = word.indexOf('{');
  if (open < 0) return [word];
  let depth = 0;
  let close = -1;
  for (let i = open; i < word.length; i++) {
    if (word[i] === '{') depth++;
    else if (word[i] === '}' && --depth === 0) {
      close = i;
      break;
    }
  }
  if (close < 0) return [word];
  const head = word.slice(0, open);
  const tail = word.slice(close + 1);
  return splitTop(word.slice(open + 1, close), ',').flatMap((part) => expand(`${head}${part}${tail}`));
}

/** Splits at `sep` outside braces. */
function splitTop(text: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}') depth--;
    else if (text[i] === sep && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.filter(Boolean);
}

/** "src/hooks/useWebSocket.ts" -> "useWebSocket.ts", a folder "models/v1/" -> "v1/". */
export function baseName(path: string): string {
  const end = path.endsWith('/') ? path.length - 1 : path.length;
  return path.slice(path.lastIndexOf('/', end - 1) + 1);
}
