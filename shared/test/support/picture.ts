/**
 * Picture-model fixtures: a bundle as multi-file text (`//- path` headers, ./fixture.ts), then a
 * `//- @picture` section that says, one line each, what the picture must show. The lines are
 * compared with `describePicture` of the bundle's picture, in order, exactly:
 *
 *   graph g LR
 *   header "Title" security 3 (2.5) autonomy 2 supervised covered planning missing testing · 0 errors, 1 warning, 0 infos
 *   node <id> "<name>" <type> <family> card <ref> [unresolved] [phases p,q] [human] [risk <marker> <weight> <how>, …] [<severity> <code>, …] @<line>:<column>
 *   edge <index> <source> -> <target> [label "…"] [<out> -> <in>: <type>] [if "…"] [weight …] [closes-cycle] [<severity> <code>, …] @<line>:<column>
 *   leak <node>: <a> -> <b> … (edges 0, 1) [omitting n]
 *   relay <node> through <judge>: <a> -> <b> … (edges 2, 3)
 *   loop <a>, <b> (edges 4, 5)
 *   fork <node> arms 0, 2
 *   entries …  /  exits …  /  unreachable …
 *   settle <kind> <node or edge n> [(<code>)] [: <message>, for the ones the picture words itself]
 *   finding <severity> <code>   (a finding on no node and no edge)
 *
 * Positions are the topology's, 1-based. Empty optional parts are left out, and so are empty
 * overlay lines.
 */
import assert from 'node:assert/strict';
import { loadBundle } from '../../src/bundle/resolve';
import { pictureOf, type Picture, type PictureFinding, type PicturePlace } from '../../src/picture';
import { parseFixture, type FixtureFile } from './fixture';

export interface PictureRow {
  readonly name: string;
  /** Files, then `//- @picture` and the expected lines. */
  readonly fixture: string;
}

/** The bundle files of a row and the lines it expects. */
export function readPictureRow(row: PictureRow): { readonly files: FixtureFile[]; readonly expected: string[] } {
  const marker = '//- @picture';
  const at = row.fixture.indexOf(marker);
  if (at < 0) throw new Error(`${row.name}: no ${marker} section`);
  const files = parseFixture(row.fixture.slice(0, at)).files;
  const expected = row.fixture
    .slice(at + marker.length)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  return { files, expected };
}

export function pictureOfRow(row: PictureRow): Picture {
  const { files } = readPictureRow(row);
  return pictureOf(loadBundle(files, { folderName: 'fixture' }), { files });
}

export function checkPicture(row: PictureRow): Picture {
  const { expected } = readPictureRow(row);
  const picture = pictureOfRow(row);
  assert.deepEqual(describePicture(picture), expected, `${row.name}: the picture differs; it reads\n${describePicture(picture).join('\n')}\n`);
  return picture;
}

export function describePicture(picture: Picture): string[] {
  const lines: string[] = [];
  const { graph, header } = picture;
  lines.push(`graph ${graph.name ?? '-'} ${graph.rankdir}${graph.drawn ? '' : ' not drawn'}`);
  const parts = [`header "${header.title}"`];
  if (header.security !== undefined) parts.push(`security ${header.security.level} (${header.security.raw})`);
  if (header.autonomy !== undefined) parts.push(`autonomy ${header.autonomy.level} ${header.autonomy.class}`);
  if (header.phases !== undefined) {
    if (header.phases.covered.length > 0) parts.push(`covered ${header.phases.covered.join(',')}`);
    if (header.phases.missing.length > 0) parts.push(`missing ${header.phases.missing.join(',')}`);
  }
  const { counts } = header;
  lines.push(`${parts.join(' ')} · ${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ${plural(counts.info, 'info')}`);
  for (const node of picture.nodes) {
    const words = [`node ${node.id} "${node.name}" ${node.type ?? '-'} ${node.family} card ${node.card.ref ?? '-'}`];
    if (!node.card.resolved) words.push('unresolved');
    if (node.phases.length > 0) words.push(`phases ${node.phases.join(',')}`);
    if (node.human) words.push('human');
    if (node.risks.length > 0) words.push(`risk ${node.risks.map((r) => `${r.marker} ${r.weight} ${r.establishedBy}`).join(', ')}`);
    if (node.severity !== undefined) words.push(findingsOf(node.severity, node.findings));
    words.push(at(node.place));
    lines.push(words.join(' '));
  }
  for (const edge of picture.edges) {
    const words = [`edge ${edge.index} ${edge.source} -> ${edge.target}`];
    if (edge.label !== undefined) words.push(`label "${edge.label}"`);
    if (edge.ports !== undefined) words.push(`${edge.ports.out} -> ${edge.ports.in}: ${edge.carries}`);
    if (edge.condition !== undefined) words.push(`if "${edge.condition}"`);
    if (edge.weight !== undefined) words.push(`weight ${edge.weight}`);
    if (edge.closesCycle) words.push('closes-cycle');
    if (edge.severity !== undefined) words.push(findingsOf(edge.severity, edge.findings));
    words.push(at(edge.place));
    lines.push(words.join(' '));
  }
  const { overlays } = picture;
  for (const leak of overlays.leaks) lines.push(`leak ${leak.node}: ${leak.nodes.join(' -> ')} (edges ${leak.edges.join(', ')})${leak.omitted !== undefined ? ` omitting ${leak.omitted}` : ''}`);
  for (const relay of overlays.relays) lines.push(`relay ${relay.node} through ${(relay.through ?? []).join(', ') || '-'}: ${relay.nodes.join(' -> ')} (edges ${relay.edges.join(', ')})`);
  for (const loop of overlays.loops) lines.push(`loop ${loop.nodes.join(', ')} (edges ${loop.edges.join(', ')})`);
  for (const fork of overlays.forks) lines.push(`fork ${fork.node} arms ${fork.arms.join(', ')}`);
  if (overlays.entries.length > 0) lines.push(`entries ${overlays.entries.join(', ')}`);
  if (overlays.exits.length > 0) lines.push(`exits ${overlays.exits.join(', ')}`);
  if (overlays.unreachable.length > 0) lines.push(`unreachable ${overlays.unreachable.join(', ')}`);
  for (const item of picture.unsettled) {
    const subject = item.edge !== undefined ? ` edge ${item.edge}` : item.node !== undefined ? ` ${item.node}` : '';
    lines.push(`settle ${item.kind}${subject}${item.code !== undefined ? ` (${item.code})` : `: ${item.message}`}`);
  }
  for (const finding of picture.findings) lines.push(`finding ${finding.severity} ${finding.code}`);
  return lines;
}

function findingsOf(severity: string, findings: readonly PictureFinding[]): string {
  const codes = [...new Set(findings.map((f) => f.code))].sort();
  return `${severity} ${codes.join(', ')}`;
}

function at(place: PicturePlace): string {
  return `@${place.line}:${place.column}`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

const spec = 'Does one well-defined step of the pipeline and reports what it did.';

export interface CardSpec {
  readonly id: string;
  readonly name?: string;
  readonly version?: string;
  readonly type?: string;
  readonly spec?: string;
  readonly phases?: readonly string[];
  readonly inputs?: readonly (readonly [string, string])[];
  readonly outputs?: readonly (readonly [string, string])[];
  readonly dependencies?: readonly string[];
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** A one-line JSON card (its dependencies are whatever the fixture's edges need: see `cardFile`). */
export function cardJson(c: CardSpec): string {
  const ports = (list: readonly (readonly [string, string])[] = []): { name: string; type: string }[] => list.map(([name, type]) => ({ name, type }));
  return JSON.stringify({
    id: c.id,
    name: c.name ?? c.id,
    type: c.type ?? 'agent',
    ...(c.phases !== undefined ? { phase: c.phases } : {}),
    action: 'act',
    spec: c.spec ?? spec,
    inputs: ports(c.inputs),
    outputs: ports(c.outputs),
    ...(c.dependencies !== undefined ? { dependencies: c.dependencies } : {}),
    ...(c.extra ?? {}),
    version: c.version ?? '1.0.0',
  });
}

/** `//- cards/<id>@<version>.json` and the card. */
export function cardFile(c: CardSpec): string {
  return `//- cards/${c.id}@${c.version ?? '1.0.0'}.json\n${cardJson(c)}`;
}
