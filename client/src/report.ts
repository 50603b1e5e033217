/**
 * `DarkPrint: Show Bundle Report`: a webview with the bundle's analysis from `darkprint/report`:
 * the security level and its rationale, autonomy with both readings (staffing share and control
 * points), phase coverage, and the risk markers with links that reveal their nodes in the topology.
 * One panel per bundle, refreshed when the server republishes that bundle's diagnostics.
 *
 * The page runs no script: node links are `command:` URIs limited to `darkprint.revealNode`.
 */
import * as vscode from 'vscode';
import { activeOrPickedBundle, basename, isInside, topologyOf, type BundleLocation } from './bundles';
import { readNodeLocation, type BundleReport, type NodeLocation, type ReportAnswer } from './protocol';
import { messageOf } from './preview';

export const revealNodeCommand = 'darkprint.revealNode';

export interface ReportDependencies {
  readonly report: (anchor: vscode.Uri) => Promise<ReportAnswer>;
  readonly coalesceMs: number;
}

export interface ReportController extends vscode.Disposable {
  readonly open: (target?: vscode.Uri) => Promise<vscode.WebviewPanel | undefined>;
}

/** The argument of `darkprint.revealNode`. */
export interface RevealNodeArguments {
  /** The bundle folder, as a URI string. */
  readonly bundle: string;
  readonly nodeId: string;
  /** Where the node first appears, when the server said; otherwise it is looked up. */
  readonly location?: NodeLocation;
}

export function createReport(dependencies: ReportDependencies): ReportController {
  const panels = new Map<string, { panel: vscode.WebviewPanel; location: BundleLocation; timer?: ReturnType<typeof setTimeout> }>();

  const refresh = async (key: string): Promise<void> => {
    const entry = panels.get(key);
    if (entry === undefined) return;
    let html: string;
    try {
      html = renderReportHtml(await dependencies.report(entry.location.anchor), {
        bundle: entry.location.root.toString(),
        bundleName: basename(entry.location.root),
        cspSource: entry.panel.webview.cspSource,
      });
    } catch (error) {
      html = renderMessageHtml(`The language server did not answer: ${messageOf(error)}. Edit the bundle to try again.`, entry.panel.webview.cspSource);
    }
    if (panels.get(key) === entry) entry.panel.webview.html = html;
  };

  const diagnostics = vscode.languages.onDidChangeDiagnostics((event) => {
    for (const [key, entry] of panels) {
      if (!event.uris.some((uri) => isInside(entry.location.root, uri))) continue;
      if (entry.timer !== undefined) clearTimeout(entry.timer);
      entry.timer = setTimeout(() => {
        entry.timer = undefined;
        void refresh(key);
      }, dependencies.coalesceMs);
    }
  });

  const open = async (target?: vscode.Uri): Promise<vscode.WebviewPanel | undefined> => {
    const location = await activeOrPickedBundle(target);
    if (location === undefined) return undefined;
    const key = location.root.toString();
    const existing = panels.get(key);
    if (existing !== undefined) {
      existing.panel.reveal(undefined, true);
      await refresh(key);
      return existing.panel;
    }
    const panel = vscode.window.createWebviewPanel(
      'darkprint.report',
      `DarkPrint Report: ${basename(location.root)}`,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: false, enableCommandUris: [revealNodeCommand], localResourceRoots: [] },
    );
    const entry: { panel: vscode.WebviewPanel; location: BundleLocation; timer?: ReturnType<typeof setTimeout> } = { panel, location };
    panels.set(key, entry);
    panel.onDidDispose(() => {
      if (entry.timer !== undefined) clearTimeout(entry.timer);
      panels.delete(key);
    });
    panel.webview.html = renderMessageHtml('Asking the language server for the analysis…', panel.webview.cspSource);
    await refresh(key);
    return panel;
  };

  return {
    open,
    dispose() {
      diagnostics.dispose();
      for (const entry of panels.values()) entry.panel.dispose();
    },
  };
}

/** Opens the bundle's topology with the node's first appearance selected. */
export async function revealNode(argument: unknown): Promise<void> {
  const parsed = readRevealArguments(argument);
  if (parsed === undefined) return;
  if (parsed.location !== undefined) {
    const { start, end } = parsed.location.range;
    const range = new vscode.Range(start.line, start.character, end.line, end.character);
    await vscode.window.showTextDocument(vscode.Uri.parse(parsed.location.uri, true), { viewColumn: vscode.ViewColumn.One, preview: false, selection: range });
    return;
  }
  const topology = await topologyOf(vscode.Uri.parse(parsed.bundle, true));
  if (topology === undefined) {
    void vscode.window.showWarningMessage(`The bundle has no topology file, so node ${parsed.nodeId} cannot be shown.`);
    return;
  }
  const document = await vscode.workspace.openTextDocument(topology);
  const range = (await symbolRange(topology, parsed.nodeId)) ?? textRange(document, parsed.nodeId);
  const editor = await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.One, preview: false });
  if (range === undefined) {
    void vscode.window.showWarningMessage(`Node ${parsed.nodeId} no longer appears in ${basename(topology)}.`);
    return;
  }
  editor.selection = new vscode.Selection(range.start, range.end);
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

// ---- HTML ----------------------------------------------------------------------------------

export interface ReportPage {
  /** The bundle folder as a URI string, passed back to `darkprint.revealNode`. */
  readonly bundle: string;
  readonly bundleName: string;
  readonly cspSource: string;
}

export function renderReportHtml(answer: ReportAnswer, page: ReportPage): string {
  switch (answer.kind) {
    case 'refused':
      return renderMessageHtml(
        `The bundle in ${page.bundleName} cannot be analysed yet: ${answer.reasons.join(' ') || 'the language server gave no reason.'}`,
        page.cspSource,
      );
    case 'report':
      return shell(reportBody(answer.report, page), page.cspSource, `DarkPrint report: ${page.bundleName}`);
  }
}

function reportBody(report: BundleReport, page: ReportPage): string {
  const locations = new Map<string, NodeLocation>();
  for (const penalty of report.security.penalties) for (const [id, location] of penalty.locations) locations.set(id, location);
  for (const finding of report.security.findings) if (finding.location !== undefined) locations.set(finding.nodeId, finding.location);
  const node = (id: string): string => nodeLink({ bundle: page.bundle, nodeId: id, ...(locations.has(id) ? { location: locations.get(id)! } : {}) });
  const { security, autonomy, phaseCoverage } = report;
  const parts: string[] = [];
  const heading = report.title !== undefined && report.title !== '' ? `${report.title} (${report.slug ?? page.bundleName})` : (report.slug ?? page.bundleName);
  parts.push(`<h1>${escapeHtml(heading)}</h1>`);
  if (report.digest !== undefined) parts.push(`<p class="muted"><code>${escapeHtml(report.digest)}</code></p>`);

  parts.push('<section id="security"><h2>Security</h2>');
  parts.push(`<p class="figure">Level <strong>${security.level}</strong> of 4${security.raw !== undefined ? ` <span class="muted">(raw ${security.raw})</span>` : ''}</p>`);
  parts.push(`<p class="rationale">${escapeHtml(security.rationale)}</p>`);
  if (security.penalties.length === 0) {
    parts.push('<p>No risk marker falls on any node.</p>');
  } else {
    parts.push('<table><thead><tr><th>marker</th><th>weight</th><th>nodes</th></tr></thead><tbody>');
    for (const penalty of security.penalties) {
      parts.push(
        `<tr><td><code>${escapeHtml(penalty.marker)}</code></td><td>−${penalty.weight.toFixed(2)}</td><td>${penalty.nodeIds.map(node).join(', ') || '—'}</td></tr>`,
      );
    }
    parts.push('</tbody></table>');
  }
  if (security.findings.length > 0) {
    parts.push('<ul class="findings">');
    for (const finding of security.findings) {
      parts.push(
        `<li>${node(finding.nodeId)}: <code>${escapeHtml(finding.marker)}</code>${finding.establishedBy ? ` <span class="muted">(${escapeHtml(finding.establishedBy)})</span>` : ''} ${escapeHtml(finding.explanation)}</li>`,
      );
    }
    parts.push('</ul>');
  }
  parts.push('</section>');

  parts.push('<section id="autonomy"><h2>Autonomy</h2>');
  parts.push(`<p class="figure">Level <strong>${autonomy.level}</strong>: ${escapeHtml(autonomy.label)} <span class="muted">(fraction ${formatShare(autonomy.fraction)})</span></p>`);
  if (autonomy.rationale !== undefined) parts.push(`<p class="rationale">${escapeHtml(autonomy.rationale)}</p>`);
  const staffed = autonomy.autonomousNodes !== undefined && autonomy.totalNodes !== undefined ? ` (${autonomy.autonomousNodes} of ${autonomy.totalNodes} nodes)` : '';
  parts.push('<ul>');
  parts.push(`<li><strong>Staffing reading</strong>: ${formatShare(autonomy.staffingFraction)} of the nodes run unattended${staffed}.</li>`);
  const control = autonomy.control;
  parts.push(
    control.totalNodes === 0
      ? '<li><strong>Control-point reading</strong>: the graph declares no control point, so the staffing reading decides the band.</li>'
      : `<li><strong>Control-point reading</strong>: ${control.unattendedNodes} of ${control.totalNodes} control point${control.totalNodes === 1 ? '' : 's'} run unattended (${formatShare(control.fraction)})${control.counted ? '; the band takes the lower of the two readings' : '; fewer than two, so it does not decide the band'}.</li>`,
  );
  parts.push('</ul></section>');

  parts.push('<section id="phases"><h2>Phase coverage</h2>');
  parts.push(
    `<p>${phaseCoverage.covered.length > 0 ? `Covered: ${phaseCoverage.covered.map(escapeHtml).join(', ')}.` : 'No phase is covered.'}${phaseCoverage.missing.length > 0 ? ` Missing: <strong>${phaseCoverage.missing.map(escapeHtml).join(', ')}</strong>.` : ' No lifecycle phase is missing.'}</p>`,
  );
  parts.push('<table><thead><tr><th>phase</th><th>nodes</th></tr></thead><tbody>');
  for (const [phase, ids] of phaseCoverage.byPhase) {
    parts.push(`<tr><td>${escapeHtml(phase)}</td><td>${ids.map(node).join(', ') || '—'}</td></tr>`);
  }
  parts.push(`<tr><td class="muted">(no phase)</td><td>${phaseCoverage.unphased.map(node).join(', ') || '—'}</td></tr>`);
  parts.push('</tbody></table></section>');
  return parts.join('\n');
}

export function renderMessageHtml(message: string, cspSource: string): string {
  return shell(`<p>${escapeHtml(message)}</p>`, cspSource, 'DarkPrint report');
}

function shell(body: string, cspSource: string, title: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${cspSource} 'unsafe-inline';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0 1.2em 1.2em; }
  h1 { font-size: 1.4em; } h2 { font-size: 1.15em; border-bottom: 1px solid var(--vscode-panel-border); padding-bottom: 0.2em; }
  .muted { color: var(--vscode-descriptionForeground); }
  .figure { font-size: 1.1em; }
  .rationale { font-family: var(--vscode-editor-font-family); }
  table { border-collapse: collapse; } td, th { text-align: left; padding: 0.2em 1em 0.2em 0; vertical-align: top; }
  a { color: var(--vscode-textLink-foreground); }
</style>
</head>
<body>
${body}
</body>
</html>
`;
}

function nodeLink(argument: RevealNodeArguments): string {
  const { nodeId } = argument;
  const href = `command:${revealNodeCommand}?${encodeURIComponent(JSON.stringify([argument]))}`;
  return `<a class="node" href="${escapeHtml(href)}" title="Show ${escapeHtml(nodeId)} in the topology"><code>${escapeHtml(nodeId)}</code></a>`;
}

/** A share as E§8 prints it: up to four decimals, trailing zeros dropped, at least two. */
function formatShare(value: number): string {
  const fixed = value.toFixed(4).replace(/0+$/, '');
  const [whole, decimals = ''] = fixed.split('.');
  return `${whole}.${decimals.padEnd(2, '0')}`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

// ---- locating a node -----------------------------------------------------------------------

function readRevealArguments(argument: unknown): RevealNodeArguments | undefined {
  if (typeof argument !== 'object' || argument === null) return undefined;
  const record = new Map(Object.entries(argument as Record<string, unknown>));
  const bundle = record.get('bundle');
  const nodeId = record.get('nodeId');
  if (typeof bundle !== 'string' || typeof nodeId !== 'string') return undefined;
  const location = readNodeLocation(record.get('location'));
  return location === undefined ? { bundle, nodeId } : { bundle, nodeId, location };
}

/** The node's range from the server's document symbols (its first appearance). */
async function symbolRange(topology: vscode.Uri, nodeId: string): Promise<vscode.Range | undefined> {
  let symbols: unknown;
  try {
    symbols = await vscode.commands.executeCommand('vscode.executeDocumentSymbolProvider', topology);
  } catch {
    return undefined;
  }
  if (!Array.isArray(symbols)) return undefined;
  const queue: unknown[] = [...(symbols as unknown[])];
  while (queue.length > 0) {
    const symbol = queue.shift();
    if (typeof symbol !== 'object' || symbol === null) continue;
    // The command answers objects that are both SymbolInformation and DocumentSymbol, not instances of either class.
    const { name, selectionRange, children } = symbol as { name?: unknown; selectionRange?: unknown; children?: unknown };
    if (name === nodeId && selectionRange instanceof vscode.Range) return selectionRange;
    if (Array.isArray(children)) queue.push(...(children as unknown[]));
  }
  return undefined;
}

/** Fallback when no symbol answers: the first whole-token or quoted occurrence outside comments. */
function textRange(document: vscode.TextDocument, nodeId: string): vscode.Range | undefined {
  const escaped = nodeId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`(^|[^\\w"])(${escaped})(?![\\w])|"(${escaped})"`, 'm');
  for (let line = 0; line < document.lineCount; line += 1) {
    const text = document.lineAt(line).text;
    if (/^\s*(\/\/|#)/.test(text)) continue;
    const match = pattern.exec(text);
    if (match === null) continue;
    const start = match.index + (match[3] !== undefined ? 1 : (match[1] ?? '').length);
    return new vscode.Range(line, start, line, start + nodeId.length);
  }
  return undefined;
}
