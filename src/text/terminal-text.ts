// Text from a log or a bundle reaches the terminal only as text: escape sequences in a message,
// cwd or graph label could retitle the window, clear the screen or write the clipboard (OSC 52).
// Everything cmv prints goes through `printable`, which keeps only newlines, tabs and, when cmv
// itself colours its output, plain colour codes.

// An SGR colour code | any other CSI sequence | OSC / DCS / PM / APC / SOS strings | a lone ESC and
// the byte after it | C0 controls but \n, \t and the \r of a CRLF line end (CSV output), DEL, and
// the C1 controls (U+0080-U+009F).
const CONTROL = /(\x1b\[[0-9;]*m)|\x1b\[[0-?]*[ -/]*[@-~]?|\x1b[\]PX^_][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b[\s\S]?|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x80-\x9f]|\r(?!\n)/g;

/** `text` without terminal control sequences; colour codes are kept only when `keepColour`. */
export function printable(text: string, keepColour = false): string {
  return text.replace(CONTROL, (_match, sgr: string | undefined) => (sgr !== undefined && keepColour ? sgr : ''));
}
