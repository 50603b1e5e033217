/**
 * The page of `DarkPrint: Show Bundle Report` (./report.ts), from a `darkprint/report` answer:
 * plain HTML with no script, each node a `command:` link to `darkprint.revealNode`, and a link to
 * the bundle's graph (`darkprint.showGraph`). Knows no
 * `vscode` API, so it renders the same under a test.
 *
 * Every list a person reads is bounded: a marker's nodes and a phase's nodes show their first
 * `listedNodes`, then how many more; a cycle is one entry however many of its members carry a
 * finding (its members listed the same way), and the findings show their first `listedFindings`
 * entries. The page grows with those bounds, not with the bundle.
 */
import type { BundleReport, NodeLocation, ReportAnswer, SecurityFinding } from './protocol';
import { showGraphCommand } from './graph-html';

export const revealNodeCommand = 'darkprint.revealNode';

/** How many nodes a list on the page names before it says how many more there are. */
export const listedNodes = 20;
/** How many entries (a finding, or a cycle with all its members' findings) the findings list shows. */
export const listedFindings = 100;

/** The argument of `darkprint.revealNode`. */
export interface RevealNodeArguments {
  /** The bundle folder, as a URI string. */
  readonly bundle: string;
  readonly nodeId: string;
  /** Where the node first appears, when the server said; otherwise it is looked up. */
  readonly location?: NodeLocation;
}

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

export function renderMessageHtml(message: string, cspSource: string): string {
  return shell(`<p>${escapeHtml(message)}</p>`, cspSource, 'DarkPrint report');
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function reportBody(report: BundleReport, page: ReportPage): string {
  const node = (id: string): string => {
    const location = report.locations.get(id);
    return nodeLink({ bundle: page.bundle, nodeId: id, ...(location !== undefined ? { location } : {}) });
  };
  const nodes = (ids: readonly string[]): string => boundedList(ids, node) || '—';
  const { security, autonomy, phaseCoverage } = report;
  const parts: string[] = [];
  const heading = report.title !== undefined && report.title !== '' ? `${report.title} (${report.slug ?? page.bundleName})` : (report.slug ?? page.bundleName);
  parts.push(`<h1>${escapeHtml(heading)}</h1>`);
  if (report.digest !== undefined) parts.push(`<p class="muted"><code>${escapeHtml(report.digest)}</code></p>`);
  parts.push(`<p><a class="graph" href="${escapeHtml(`command:${showGraphCommand}?${encodeURIComponent(JSON.stringify([page.bundle]))}`)}">Show the blueprint graph</a></p>`);

  parts.push('<section id="security"><h2>Security</h2>');
  parts.push(`<p class="figure">Level <strong>${security.level}</strong> of 4${security.raw !== undefined ? ` <span class="muted">(raw ${security.raw})</span>` : ''}</p>`);
  parts.push(`<p class="rationale">${escapeHtml(security.rationale)}</p>`);
  if (security.penalties.length === 0) {
    parts.push('<p>No risk marker falls on any node.</p>');
  } else {
    parts.push('<table><thead><tr><th>marker</th><th>weight</th><th>nodes</th></tr></thead><tbody>');
    for (const penalty of security.penalties) {
      parts.push(`<tr><td><code>${escapeHtml(penalty.marker)}</code></td><td>−${penalty.weight.toFixed(2)}</td><td>${nodes(penalty.nodeIds)}</td></tr>`);
    }
    parts.push('</tbody></table>');
  }
  const entries = findingEntries(report, node);
  if (entries.length > 0) {
    parts.push('<ul class="findings">');
    for (const entry of entries.slice(0, listedFindings)) parts.push(`<li>${entry.html}</li>`);
    if (entries.length > listedFindings) {
      const rest = entries.slice(listedFindings).reduce((sum, entry) => sum + entry.findings, 0);
      parts.push(`<li class="muted">…and ${count(rest, 'more finding')} not shown here.</li>`);
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
  for (const [phase, ids] of phaseCoverage.byPhase) parts.push(`<tr><td>${escapeHtml(phase)}</td><td>${nodes(ids)}</td></tr>`);
  parts.push(`<tr><td class="muted">(no phase)</td><td>${nodes(phaseCoverage.unphased)}</td></tr>`);
  parts.push('</tbody></table></section>');
  return parts.join('\n');
}

/**
 * The findings as the page lists them, in the answer's order: a finding that its cycle alone
 * establishes is folded into one entry for the cycle (where the first of them stood); a finding
 * in its own words stays an entry of its own. `findings` counts the findings an entry stands for.
 */
function findingEntries(report: BundleReport, node: (id: string) => string): { readonly html: string; readonly findings: number }[] {
  const { findings, cycles } = report.security;
  const entries: { html: string; findings: number }[] = [];
  const cycleEntries = new Map<number, { html: string; findings: number }>();
  for (const finding of findings) {
    const at = finding.cycle;
    if (at === undefined || finding.explanation !== undefined) {
      entries.push({ html: findingHtml(finding, node), findings: 1 });
      continue;
    }
    const known = cycleEntries.get(at);
    if (known !== undefined) {
      known.findings += 1;
      continue;
    }
    const cycle = cycles[at];
    const entry = {
      html: `${marked(finding)} on ${boundedList(cycle.members, node)}: ${escapeHtml(cycle.explanation)}${hintHtml(cycle.hint)}`,
      findings: 1,
    };
    cycleEntries.set(at, entry);
    entries.push(entry);
  }
  return entries;
}

function findingHtml(finding: SecurityFinding, node: (id: string) => string): string {
  return `${node(finding.nodeId)}: ${marked(finding)} ${escapeHtml(finding.explanation ?? '')}${hintHtml(finding.hint ?? '')}`;
}

/** The marker and how it was established. */
function marked(finding: SecurityFinding): string {
  return `<code>${escapeHtml(finding.marker)}</code>${finding.establishedBy ? ` <span class="muted">(${escapeHtml(finding.establishedBy)})</span>` : ''}`;
}

function hintHtml(hint: string): string {
  return hint === '' ? '' : ` <span class="hint muted">${escapeHtml(hint)}</span>`;
}

/** The first `listedNodes` items, then how many more. */
function boundedList(ids: readonly string[], show: (id: string) => string): string {
  const shown = ids.slice(0, listedNodes).map(show).join(', ');
  return ids.length > listedNodes ? `${shown} and ${ids.length - listedNodes} more` : shown;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
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
  ul.findings li { margin-bottom: 0.3em; }
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

/** A share as the engine's rationale prints it: up to four decimals, trailing zeros dropped, at least two. */
function formatShare(value: number): string {
  const fixed = value.toFixed(4).replace(/0+$/, '');
  const [whole, decimals = ''] = fixed.split('.');
  return `${whole}.${decimals.padEnd(2, '0')}`;
}
