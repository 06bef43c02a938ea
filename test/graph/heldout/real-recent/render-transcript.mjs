#!/usr/bin/env node
// Render a Claude Code JSONL log (2.1.50-2.1.229) as a readable transcript for blind annotation.
// Usage: node render-transcript.mjs <log.jsonl>  > transcript.txt
// Shows: user messages (and queued ones), assistant text, one line per tool call with its key
// input, the first 300 chars of each tool result with its error flag, compaction summaries,
// subagent (isSidechain) lines marked [side], and the attachments that carry user intent or errors.
import { readFileSync } from 'node:fs';

const RESULT_CHARS = 300;
const path = process.argv[2];
if (!path) {
  console.error('usage: render-transcript.mjs <log.jsonl>');
  process.exit(2);
}

const oneLine = (s, n) => {
  const t = String(s ?? '').replace(/\s+/g, ' ').trim();
  return n && t.length > n ? t.slice(0, n) + '…' : t;
};

function keyInput(name, input = {}) {
  switch (name) {
    case 'Bash':
    case 'PowerShell':
      return oneLine(input.command, 400) + (input.run_in_background ? ' [bg]' : '');
    case 'Read':
      return input.file_path + (input.offset ? ` @${input.offset}` : '');
    case 'Write':
      return `${input.file_path} (${String(input.content ?? '').split('\n').length} lines)`;
    case 'Edit':
      return `${input.file_path}${input.replace_all ? ' [all]' : ''}: ${oneLine(input.old_string, 80)} => ${oneLine(input.new_string, 120)}`;
    case 'MultiEdit':
      return `${input.file_path} (${(input.edits ?? []).length} edits)`;
    case 'NotebookEdit':
      return input.notebook_path;
    case 'Grep':
      return `${JSON.stringify(input.pattern)} ${input.path ?? ''} ${input.glob ?? ''}`.trim();
    case 'Glob':
      return `${input.pattern} ${input.path ?? ''}`.trim();
    case 'TaskCreate':
      return `${oneLine(input.subject, 200)}${input.description ? ' — ' + oneLine(input.description, 200) : ''}`;
    case 'TaskUpdate':
      return `#${input.taskId} ${Object.entries(input).filter(([k]) => k !== 'taskId').map(([k, v]) => `${k}=${oneLine(typeof v === 'string' ? v : JSON.stringify(v), 150)}`).join(' ')}`;
    case 'TodoWrite':
      return (input.todos ?? []).map((t) => `[${t.status}] ${t.content}`).join(' | ');
    case 'Agent':
    case 'Task':
      return `${input.subagent_type ?? ''} "${oneLine(input.description, 100)}": ${oneLine(input.prompt, 600)}`;
    case 'ToolSearch':
      return oneLine(input.query, 200);
    case 'Skill':
      return `${input.skill ?? input.name ?? ''} ${oneLine(input.args, 200)}`;
    case 'ExitPlanMode':
      return '\n    PLAN: ' + String(input.plan ?? '').replace(/\n/g, '\n    ');
    case 'AskUserQuestion':
      return (input.questions ?? []).map((q) => `${q.question} [${(q.options ?? []).map((o) => o.label).join(' / ')}]`).join(' || ');
    case 'WebFetch':
      return `${input.url} ${oneLine(input.prompt, 120)}`;
    case 'WebSearch':
      return oneLine(input.query, 200);
    default:
      return oneLine(JSON.stringify(input), 300);
  }
}

function resultText(c) {
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join(' ');
  return JSON.stringify(c);
}

const out = [];
let lastTitle = '';
let lastPr = '';
const lines = readFileSync(path, 'utf8').split('\n');
for (let i = 0; i < lines.length; i++) {
  if (!lines[i].trim()) continue;
  let e;
  try {
    e = JSON.parse(lines[i]);
  } catch {
    out.push(`L${i + 1} [unparseable line]`);
    continue;
  }
  const side = e.isSidechain ? '[side] ' : '';
  const tag = `L${i + 1} ${side}`;
  switch (e.type) {
    case 'user': {
      const c = e.message?.content;
      if (e.isCompactSummary) {
        out.push(`${tag}=== COMPACTION SUMMARY ===\n${resultText(c)}\n=== END SUMMARY ===`);
        break;
      }
      if (typeof c === 'string') {
        out.push(`${tag}${e.isMeta ? 'USER[meta]: ' + oneLine(c, 300) : 'USER: ' + c}`);
        break;
      }
      for (const b of c ?? []) {
        if (b.type === 'text') out.push(`${tag}${e.isMeta ? 'USER[meta]: ' + oneLine(b.text, 300) : 'USER: ' + b.text}`);
        else if (b.type === 'image') out.push(`${tag}USER: [image]`);
        else if (b.type === 'tool_result')
          out.push(`${tag}  <- ${b.is_error ? 'ERROR ' : ''}${oneLine(resultText(b.content), RESULT_CHARS)}`);
      }
      break;
    }
    case 'assistant': {
      for (const b of e.message?.content ?? []) {
        if (b.type === 'text' && b.text.trim()) out.push(`${tag}ASSISTANT: ${b.text}`);
        else if (b.type === 'tool_use') out.push(`${tag}  -> ${b.name}: ${keyInput(b.name, b.input)}`);
      }
      break;
    }
    case 'queue-operation':
      if (e.operation === 'enqueue' && e.content && !String(e.content).startsWith('<task-notification>'))
        out.push(`${tag}QUEUED USER: ${e.content}`);
      else if (e.operation === 'enqueue' && e.content) out.push(`${tag}[task notification] ${oneLine(e.content.replace(/<[^>]+>/g, ' '), 200)}`);
      break;
    case 'attachment': {
      const a = e.attachment ?? {};
      if (a.type === 'queued_command') out.push(`${tag}QUEUED USER (attachment): ${typeof a.prompt === 'string' ? a.prompt : resultText(a.prompt)}`);
      else if (a.type === 'edited_text_file') out.push(`${tag}[user edited file] ${a.filename}`);
      else if (a.type === 'hook_non_blocking_error') out.push(`${tag}[hook error ${a.hookName}] ${oneLine(a.stderr || a.stdout, 200)}`);
      else if (a.type === 'hook_system_message' || a.type === 'hook_additional_context')
        out.push(`${tag}[hook ${a.hookName}] ${oneLine(resultText(a.content), 200)}`);
      else if (a.type === 'plan_mode' || a.type === 'plan_mode_exit' || a.type === 'plan_mode_reentry') out.push(`${tag}[${a.type}]`);
      else if (a.type === 'opened_file_in_ide' || a.type === 'file') out.push(`${tag}[${a.type}] ${a.filename ?? a.displayPath}`);
      break;
    }
    case 'system':
      if (e.subtype === 'compact_boundary') out.push(`${tag}=== COMPACT BOUNDARY ===`);
      else if (e.subtype === 'api_error') out.push(`${tag}[api error] ${oneLine(JSON.stringify(e.error), 200)}`);
      else if (e.subtype === 'local_command') out.push(`${tag}[local command] ${oneLine(e.content, 300)}`);
      else if (e.subtype === 'away_summary') out.push(`${tag}[recap] ${oneLine(e.content, 400)}`);
      else if (e.subtype === 'stop_hook_summary' && (e.hookErrors?.length || e.preventedContinuation))
        out.push(`${tag}[stop hook] ${oneLine(JSON.stringify(e.hookErrors), 300)}`);
      break;
    case 'summary':
      out.push(`${tag}[summary title] ${e.summary}`);
      break;
    case 'ai-title':
    case 'custom-title': {
      // repeated on every checkpoint: print only when it changes
      const t = e.aiTitle ?? e.customTitle ?? e.title ?? '';
      if (t !== lastTitle) out.push(`${tag}[title] ${t}`);
      lastTitle = t;
      break;
    }
    case 'pr-link': {
      const u = e.prUrl ?? e.url ?? '';
      if (u !== lastPr) out.push(`${tag}[pr-link] ${u}`);
      lastPr = u;
      break;
    }
    default:
      break;
  }
}
console.log(out.join('\n'));
