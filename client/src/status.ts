/**
 * The status bar item for the active editor's bundle: its security level and autonomy band from
 * `darkprint/report`; a click opens the report. Hidden when the active editor is not in a bundle.
 * Refreshed when the active editor changes and when the server republishes the bundle's diagnostics.
 */
import * as vscode from 'vscode';
import { bundleOf, isInside, isServed, type BundleLocation } from './bundles';
import { previewScheme } from './preview';
import type { ReportAnswer } from './protocol';

export interface StatusDependencies {
  readonly report: (anchor: vscode.Uri) => Promise<ReportAnswer>;
  readonly coalesceMs: number;
  readonly reportCommand: string;
}

export function createStatus(dependencies: StatusDependencies): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('darkprint.bundle', vscode.StatusBarAlignment.Left, 10);
  item.name = 'DarkPrint Bundle';
  item.command = dependencies.reportCommand;
  let current: BundleLocation | undefined;
  let generation = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const update = async (): Promise<void> => {
    const ticket = ++generation;
    const document = vscode.window.activeTextEditor?.document;
    const location = document !== undefined && isServed(document.uri) ? await bundleOf(document.uri) : undefined;
    if (ticket !== generation) return;
    if (location === undefined) {
      // A preview or an output panel keeps the last bundle's item; other files hide it.
      if (document === undefined || document.uri.scheme === previewScheme || document.uri.scheme === 'output') return;
      current = undefined;
      item.hide();
      return;
    }
    current = location;
    let answer: ReportAnswer;
    try {
      answer = await dependencies.report(location.anchor);
    } catch (error) {
      if (ticket !== generation) return;
      item.text = '$(shield) DarkPrint';
      item.tooltip = `The language server did not answer the report request: ${error instanceof Error ? error.message : String(error)}`;
      item.show();
      return;
    }
    if (ticket !== generation) return;
    switch (answer.kind) {
      case 'report': {
        const { security, autonomy } = answer.report;
        item.text = `$(shield) Security ${security.level}/4 $(pulse) ${autonomy.label}`;
        const tooltip = new vscode.MarkdownString();
        tooltip.appendMarkdown(`**DarkPrint bundle ${answer.report.slug ?? ''}**\n\n`);
        tooltip.appendMarkdown(`Security level ${security.level} of 4: `);
        tooltip.appendText(security.rationale);
        tooltip.appendMarkdown(`\n\nAutonomy level ${autonomy.level} (${autonomy.label})\n\nClick for the full report.`);
        item.tooltip = tooltip;
        break;
      }
      case 'refused':
        item.text = '$(shield) DarkPrint: not analysed';
        item.tooltip = `The bundle cannot be analysed yet: ${answer.reasons.join(' ')}`;
        break;
    }
    item.show();
  };

  const schedule = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      void update();
    }, dependencies.coalesceMs);
  };

  const subscriptions: vscode.Disposable[] = [
    item,
    vscode.window.onDidChangeActiveTextEditor(() => void update()),
    vscode.languages.onDidChangeDiagnostics((event) => {
      const location = current;
      if (location !== undefined && event.uris.some((uri) => isInside(location.root, uri))) schedule();
    }),
  ];
  void update();
  return {
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
      for (const subscription of subscriptions) subscription.dispose();
    },
  };
}
