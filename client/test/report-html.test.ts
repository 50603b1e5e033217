/// <reference types="mocha" />
/**
 * The report page (../src/report-html.ts) from `darkprint/report` answers as the server writes
 * them (../src/protocol.ts reads them): a cycle shown once with its first members, every list a
 * person reads bounded, and node links that carry the place the server gave.
 */
import assert from 'node:assert/strict';
import { readReportAnswer } from '../src/protocol';
import { listedFindings, listedNodes, renderReportHtml } from '../src/report-html';

const page = { bundle: 'file:///work/ring', bundleName: 'ring', cspSource: 'vscode-resource:' };
const topology = 'file:///work/ring/topology.dot';
const hint = 'Set a top-level params.max_iterations on the card of one of the cycle.';

/** An answer as the server writes it: a cycle of `size` nodes n0…, with n1 also declaring the marker, and a self-loop `solo`. */
function answer(size: number): unknown {
  const members = Array.from({ length: size }, (_, i) => `n${i}`);
  const ranges = Object.fromEntries([...members, 'solo'].map((id, i) => [id, { start: { line: i + 1, character: 2 }, end: { line: i + 1, character: 2 + id.length } }]));
  return {
    bundle: { uri: 'file:///work/ring', slug: 'ring', title: 'Ring', digest: 'sha256:0', nodes: size + 1, edges: size + 1 },
    security: {
      level: 3,
      raw: 2.5,
      rationale: '4 − 1.50 (unbounded-loop) → 3',
      penalties: [{ marker: 'unbounded-loop', weight: 1.5, explanation: '…', nodeIds: [...members, 'solo'].sort() }],
      findings: [...members, 'solo'].sort().map((id) =>
        id === 'n1'
          ? { marker: 'unbounded-loop', nodeId: id, establishedBy: 'declared', explanation: 'Node "n1" declares the risk marker unbounded-loop, and sits in a cycle.', hint, cycle: 0 }
          : { marker: 'unbounded-loop', nodeId: id, establishedBy: 'inferred', cycle: id === 'solo' ? 1 : 0 },
      ),
      cycles: [
        { members, explanation: `These ${size} nodes form a cycle where no node declares an iteration cap, so a run can go round without end.`, hint },
        { members: ['solo'], explanation: 'The node has an edge to itself and declares no iteration cap, so a run can repeat it without end.', hint: 'Set it on the card of solo.' },
      ],
    },
    locations: { uri: topology, ranges },
    autonomy: { level: 4, class: 'closed-loop', label: 'Closed-loop', fraction: 1, staffingFraction: 1, control: { totalNodes: 0, unattendedNodes: 0, fraction: 0, counted: false }, rationale: '…' },
    phaseCoverage: { covered: ['implementation'], missing: [], byPhase: { implementation: members }, unphased: [] },
  };
}

function render(size: number): string {
  const read = readReportAnswer(answer(size));
  assert.equal(read?.kind, 'report');
  return renderReportHtml(read, page);
}

/** The node ids linked on the page, in order. */
const linked = (html: string): string[] => [...html.matchAll(/<a class="node"[^>]*><code>([^<]*)<\/code><\/a>/g)].map((m) => m[1]);

describe('client: the report page', () => {
  it('shows a cycle once, on its members, with its explanation and hint; a member in its own words stays its own entry', () => {
    const html = render(3);
    const findings = /<ul class="findings">([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? '';
    const entries = findings.split('<li>').slice(1);
    assert.equal(entries.length, 3, findings);
    // the cycle where its first finding stood (n0), the declared member, the self-loop
    assert.match(entries[0], /^<code>unbounded-loop<\/code> <span class="muted">\(inferred\)<\/span> on <a[^>]*><code>n0<\/code><\/a>, <a[^>]*><code>n1<\/code><\/a>, <a[^>]*><code>n2<\/code><\/a>: These 3 nodes form a cycle/);
    assert.ok(entries[0].includes(hint));
    assert.match(entries[1], /n1<\/code><\/a>: <code>unbounded-loop<\/code> <span class="muted">\(declared\)<\/span> Node &#34;n1&#34; declares/);
    assert.match(entries[2], /on <a class="node"[^>]*><code>solo<\/code><\/a>: The node has an edge to itself/);
    // a link carries the place the server gave
    const href = /<a class="node" href="command:darkprint\.revealNode\?([^"]*)"[^>]*><code>n2<\/code>/.exec(html)?.[1] ?? '';
    const [argument] = JSON.parse(decodeURIComponent(href.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))))) as [{ location?: { uri: string; range: { start: { line: number } } } }];
    assert.equal(argument.location?.uri, topology);
    assert.equal(argument.location?.range.start.line, 3);
  });

  it('a 12,000-node cycle: its first members named, then how many more, in a page that does not grow with it', () => {
    const small = render(30);
    const html = render(12_000);
    const findings = /<ul class="findings">([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? '';
    assert.equal(findings.split('<li>').length - 1, 3, 'one entry for the cycle, one for the declared member, one for the self-loop');
    assert.deepEqual(
      linked(findings).slice(0, listedNodes + 1),
      [...Array.from({ length: listedNodes }, (_, i) => `n${i}`), 'n1'],
      'the cycle names its first members in graph order, then the declared member',
    );
    assert.ok(findings.includes(`and ${12_000 - listedNodes} more`), findings.slice(0, 2000));
    // the marker's nodes and the phase's nodes are bounded the same way
    assert.ok(html.includes(`and ${12_001 - listedNodes} more`));
    assert.ok(html.includes(`and ${12_000 - listedNodes} more</td>`));
    assert.equal(linked(html).length, linked(small).length, 'as many links for 12,000 nodes as for 30');
    assert.ok(html.length < 2 * small.length, `${html.length} characters against ${small.length}`);
  });

  it(`lists the first ${listedFindings} findings, then says how many more`, () => {
    // 150 self-loops, each its own cycle
    const ids = Array.from({ length: 150 }, (_, i) => `s${String(i).padStart(3, '0')}`);
    const raw = answer(2) as { security: { findings: unknown[]; cycles: unknown[] } };
    raw.security.cycles = ids.map((id) => ({ members: [id], explanation: 'The node has an edge to itself.', hint: `Set it on the card of ${id}.` }));
    raw.security.findings = ids.map((id, i) => ({ marker: 'unbounded-loop', nodeId: id, establishedBy: 'inferred', cycle: i }));
    const read = readReportAnswer(raw);
    assert.equal(read?.kind, 'report');
    const html = renderReportHtml(read, page);
    const findings = /<ul class="findings">([\s\S]*?)<\/ul>/.exec(html)?.[1] ?? '';
    assert.equal(findings.split('<li').length - 1, listedFindings + 1);
    assert.ok(findings.includes(`…and ${150 - listedFindings} more findings not shown here.`), findings.slice(-300));
  });

  it('reads the CLI JSON shape too (no findings, cycles or places)', () => {
    const read = readReportAnswer({
      digest: 'sha256:0',
      analysis: {
        security: { level: 4, raw: 4, rationale: '4 − 0.00 (no risk marker present across 1 node) → 4', penalties: [] },
        autonomy: { level: 1, class: 'assisted', fraction: 0, staffingFraction: 0, control: { totalNodes: 0, unattendedNodes: 0, fraction: 0, counted: false } },
        phaseCoverage: { covered: [], missing: [], byPhase: {}, unphased: ['a'] },
      },
    });
    assert.equal(read?.kind, 'report');
    if (read?.kind !== 'report') return;
    assert.deepEqual(read.report.security.cycles, []);
    assert.equal(read.report.locations.size, 0);
    assert.ok(renderReportHtml(read, page).includes('No risk marker falls on any node.'));
  });
});
