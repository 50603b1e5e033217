/**
 * Findings as GitHub Actions workflow commands: one line per finding,
 * `::error file=…,line=…,col=…,endLine=…,endColumn=…,title=<code>::<message>` (`warning` and
 * `notice` for the other severities), which the runner turns into annotations shown on the
 * lines of a pull request. Pure: where a finding lies arrives as data.
 *
 * The runner reads `%25`, `%0D` and `%0A` in a command's message as `%`, a carriage return and a
 * line feed, and in its properties `%3A` and `%2C` as `:` and `,` too; everything written here is
 * escaped so, and any other control character is written as a visible escape (`\x1b`), so that
 * nothing in a finding can end the command early, start another one, or drive the terminal the
 * log is shown in.
 */
import type { Diagnostic, Severity } from './types';

/** Where a finding is shown: a file (a path relative to the repository root) and 1-based positions. */
export interface GithubPlace {
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  readonly endLine?: number;
  readonly endColumn?: number;
}

/** The command of a severity. */
export function githubCommandName(severity: Severity): 'error' | 'warning' | 'notice' {
  switch (severity) {
    case 'error':
      return 'error';
    case 'warning':
      return 'warning';
    case 'info':
      return 'notice';
  }
}

/** One finding as a workflow command line (with its line feed). */
export function githubCommand(d: Diagnostic, place: GithubPlace): string {
  const properties: string[] = [];
  if (place.file !== undefined) properties.push(`file=${escapeGithubProperty(place.file)}`);
  if (place.line !== undefined) properties.push(`line=${place.line}`);
  if (place.column !== undefined) properties.push(`col=${place.column}`);
  if (place.endLine !== undefined) properties.push(`endLine=${place.endLine}`);
  if (place.endColumn !== undefined) properties.push(`endColumn=${place.endColumn}`);
  properties.push(`title=${escapeGithubProperty(d.code)}`);
  const message = d.hint !== undefined ? `${d.message}\n${d.hint}` : d.message;
  return `::${githubCommandName(d.severity)} ${properties.join(',')}::${escapeGithubData(message)}\n`;
}

/** A command's message as the runner reads it back: `%`, carriage return and line feed escaped. */
export function escapeGithubData(text: string): string {
  return visibleControls(text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
}

/** A command's property value: as a message, and `:` and `,` escaped too. */
export function escapeGithubProperty(text: string): string {
  return visibleControls(text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/:/g, '%3A').replace(/,/g, '%2C'));
}

/** The control characters left (C0, DEL, C1) as `\xNN` (`\t` for a tab). */
function visibleControls(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => (c === '\t' ? '\\t' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
}
