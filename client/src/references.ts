/**
 * `darkprint.showReferences`, the command of the server's "pinned by N nodes" code lens: shows
 * the places it lists in VS Code's references view. VS Code's own `editor.action.showReferences`
 * takes VS Code's types, which a language server cannot send; this converts the protocol's
 * (read by ./protocol.ts `readReferencesArguments`).
 */
import * as vscode from 'vscode';
import { readReferencesArguments, type LinePosition } from './protocol';

export const showReferencesCommand = 'darkprint.showReferences';

export async function showReferences(args: readonly unknown[]): Promise<void> {
  const read = readReferencesArguments(args);
  if (read === undefined) throw new Error(`${showReferencesCommand} takes a URI, a position and a list of locations`);
  const position = (p: LinePosition): vscode.Position => new vscode.Position(p.line, p.character);
  const locations = read.locations.map((l) => new vscode.Location(vscode.Uri.parse(l.uri, true), new vscode.Range(position(l.range.start), position(l.range.end))));
  await vscode.commands.executeCommand('editor.action.showReferences', vscode.Uri.parse(read.uri, true), position(read.position), locations);
}
