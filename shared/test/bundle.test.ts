/**
 * Resolution (docs/compatibility.md#resolution): every bundle/* code fires where it should and
 * nowhere else. Cards are one-line JSON to keep the fixtures readable; `card(...)` builds one.
 */
import assert from 'node:assert/strict';
import { assertDiagnostics, parseFixture } from './support/fixture';
import { loadBundle } from '../src/bundle/resolve';

const spec = 'Does one well-defined step of the pipeline and reports what it did.';

interface CardSpec {
  id: string;
  version?: string;
  type?: string;
  inputs?: [string, string][];
  outputs?: [string, string][];
  cannot?: string[];
  dependencies?: string[];
  extra?: Record<string, unknown>;
}

/** One-line JSON card text. */
function card(c: CardSpec): string {
  const ports = (list: [string, string][] = []) => list.map(([name, type]) => ({ name, type }));
  return JSON.stringify({
    id: c.id,
    name: c.id,
    type: c.type ?? 'agent',
    action: 'act',
    spec,
    inputs: ports(c.inputs),
    outputs: ports(c.outputs),
    ...(c.cannot ? { cannot: c.cannot } : {}),
    ...(c.dependencies ? { dependencies: c.dependencies } : {}),
    ...(c.extra ?? {}),
    version: c.version ?? '1.0.0',
  });
}

function check(source: string): void {
  const families = source.includes('attractor/unguarded-fork') ? ['bundle/', 'attractor/unguarded-fork'] : ['bundle/'];
  const fixture = parseFixture(source);
  const result = loadBundle(fixture.files, { folderName: 'fixture' });
  assertDiagnostics(fixture, result.diagnostics, families);
}

const a = card({ id: 'a', outputs: [['out', 'text']] });
const b = card({ id: 'b', inputs: [['in', 'text']], dependencies: ['a'] });

/** Card b in YAML, fed by an edge, with `dependencies` as written and the annotation line that follows it. */
function bDepending(dependencies: string, annotation: string): string {
  return `id: b\nname: B\ntype: agent\naction: act\nspec: ${spec}\ninputs: [{ name: in, type: text }]\noutputs: []\ndependencies: ${dependencies}\n${annotation}\nversion: 1.0.0`;
}

const cases: Record<string, string> = {
  'a clean two-node bundle has no bundle findings': `
//- topology.dot
digraph g { a [card="a@1.0.0"]; b [card="b@1.0.0"]; a -> b; }
//- cards/a@1.0.0.json
${a}
//- cards/b@1.0.0.json
${b}
`,
  'missing-card: pinned ref the bundle does not hold, on the pin value': `
//- topology.dot
digraph g { a [card="a@2.0.0"]; }
//                  ^^^^^^^^^ error bundle/missing-card: only a@1.0.0
//- cards/a@1.0.0.json
${card({ id: 'a' })}
//    ^^^ warning bundle/orphan-card
`,
  'missing-card: the pinned card file has errors, so the message names it instead of asking to add it': `
//- topology.dot
digraph g { a [card="a@1.0.0"]; }
//                  ^^^^^^^^^ error bundle/missing-card: cards/a@1.0.0.json declares that card, but its errors keep it out of the bundle
//- cards/a@1.0.0.json
${card({ id: 'a', outputs: [['out', 'markdwn']] })}
`,
  'missing-card: no pointer, and the card file with the node id has errors, so the message names it and the pin to add': `
//- topology.dot
digraph g { a; }
//          ^ error bundle/missing-card: cards/a@1.0.0.json declares a card with that id, but its errors keep it out of the bundle; fix the errors reported in cards/a@1.0.0.json, then add card="a@1.0.0"
//- cards/a@1.0.0.json
${card({ id: 'a', outputs: [['out', 'markdwn']] })}
`,
  'missing-card: the file named for the pinned version declares another, so the message says which version to write': `
//- topology.dot
digraph g { a [card="a@1.1.0"]; }
//                  ^^^^^^^^^ error bundle/missing-card: cards/a@1.1.0.json is named for that version but declares a@1.0.0; write version: 1.1.0 in that card if it is the new version, or pin a@1.0.0
//- cards/a@1.1.0.json
${card({ id: 'a' })}
//    ^^^ warning bundle/orphan-card
`,
  'missing-card: a namespaced card file is named for its namespaced ref, not for the pin of its last part': `
//- topology.dot
digraph g { a [card="a@1.0.0"]; b [card="ns/a@1.0.0"]; }
//                  ^^^^^^^^^ error bundle/missing-card: no card in the bundle has that id and version
//- cards/ns/a@1.0.0.json
${card({ id: 'ns/a' })}
`,
  'missing-card: the file named for the pin is no card at all (its id cannot be read), so the message sends the user to its errors': `
//- topology.dot
digraph g { a [card="a@1.0.0"]; }
//                  ^^^^^^^^^ error bundle/missing-card: cards/a@1.0.0.json is named for that card, but its errors keep it out of the bundle; fix the errors reported in cards/a@1.0.0.json
//- cards/a@1.0.0.json
{"id": 
`,
  'missing-card: no pointer and no card with the node id': `
//- topology.dot
digraph g { lonely; }
//          ^^^^^^ error bundle/missing-card
`,
  'missing-card: version= on a node whose id is not a card id': `
//- topology.dot
digraph g { my_step [version="1.0.0"]; }
//                           ^^^^^^^ error bundle/missing-card
`,
  'unpinned-card: not id@version, ranges, latest, 1.x, and a bare node whose id names a card': `
//- topology.dot
digraph g {
  n1 [card="a"];
//         ^^^ error bundle/unpinned-card
  n2 [card="a@^1.0.0"];
//         ^^^^^^^^^^ error bundle/unpinned-card
  n3 [card="a@latest"];
//         ^^^^^^^^^^ error bundle/unpinned-card
  n4 [card="a@1.x"];
//         ^^^^^^^ error bundle/unpinned-card
  a;
//^ error bundle/unpinned-card: card="a@1.0.0"
  n5 [card="a@1.0.0"];
}
//- cards/a@1.0.0.json
${card({ id: 'a' })}
`,
  'unpinned-card: version= that is not exact': `
//- topology.dot
digraph g { a [version="1.x"]; b [version="1.0.0"]; }
//                     ^^^^^ error bundle/unpinned-card
//- cards/a@1.0.0.json
${card({ id: 'a' })}
//    ^^^ warning bundle/orphan-card
//- cards/b@1.0.0.json
${card({ id: 'b' })}
`,
  'orphan-card: a loaded card no node pins, on its id': `
//- topology.dot
digraph g { a [card="a@1.0.0"]; }
//- cards/a@1.0.0.json
${card({ id: 'a' })}
//- cards/spare@1.0.0.yaml
id: spare
#   ^^^^^ warning bundle/orphan-card: spare@1.0.0
name: Spare
type: agent
action: act
spec: ${spec}
inputs: []
outputs: []
version: 1.0.0
`,
  'digest-mismatch: two files claim one ref with different contents': `
//- topology.dot
digraph g { a [card="a@1.0.0"]; }
//- cards/a@1.0.0.json
${card({ id: 'a' })}
//- cards/z-copy.yaml
id: a
name: Another A
type: agent
action: act
spec: ${spec}
inputs: []
outputs: []
version: 1.0.0
#        ^^^^^ error bundle/digest-mismatch
`,
  'digest-mismatch: a digest pin that is not a prefix of the card digest': `
//- topology.dot
digraph g { a [card="a@1.0.0", digest="sha256:0000"]; }
//                                    ^^^^^^^^^^^^^ error bundle/digest-mismatch
//- cards/a@1.0.0.json
${card({ id: 'a' })}
`,
  'port-mismatch: out= and in= naming ports the cards lack, on the values': `
//- topology.dot
digraph g { a [card="a@1.0.0"]; b [card="b@1.0.0"]; a -> b [out="nope", in="nada"]; }
//                                                              ^^^^^^ error bundle/port-mismatch: "nope"
//                                                                         ^^^^^^ error bundle/port-mismatch: "nada"
//- cards/a@1.0.0.json
${a}
//- cards/b@1.0.0.json
${b}
`,
  'port-mismatch: an edge that carries no data': `
//- topology.dot
digraph g { a [card="a@1.0.0"]; c [card="c@1.0.0"]; a -> c; }
//                                                  ^^^^^^ error bundle/port-mismatch: carries no data
//- cards/a@1.0.0.json
${card({ id: 'a' })}
//- cards/c@1.0.0.json
${card({ id: 'c', inputs: [['in', 'text']], dependencies: ['a'] })}
`,
  'type-mismatch: no compatible pair, and a pinned incompatible pair; narrower output fits': `
//- topology.dot
digraph g {
  t [card="t@1.0.0"]; c [card="c@1.0.0"]; k [card="k@1.0.0"];
  t -> c;
//^^^^^^ error bundle/type-mismatch
  k -> t [out="code", in="in"];
}
//- cards/t@1.0.0.json
${card({ id: 't', inputs: [['in', 'text']], outputs: [['out', 'text']], dependencies: ['k'] })}
//- cards/c@1.0.0.json
${card({ id: 'c', inputs: [['in', 'code']], dependencies: ['t'] })}
//- cards/k@1.0.0.json
${card({ id: 'k', outputs: [['code', 'code']] })}
`,
  'type-mismatch: pinned pair whose types do not fit': `
//- topology.dot
digraph g { a [card="a@1.0.0"]; c [card="c@1.0.0"]; a -> c [out="out", in="in"]; }
//                                                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^ error bundle/type-mismatch
//- cards/a@1.0.0.json
${a}
//- cards/c@1.0.0.json
${card({ id: 'c', inputs: [['in', 'code']], dependencies: ['a'] })}
`,
  'port-ambiguous: two compatible pairs': `
//- topology.dot
digraph g { a [card="a@1.0.0"]; d [card="d@1.0.0"]; a -> d; }
//                                                  ^^^^^^ warning bundle/port-ambiguous
//- cards/a@1.0.0.json
${a}
//- cards/d@1.0.0.json
${card({ id: 'd', inputs: [['one', 'text'], ['two', 'any']], dependencies: ['a'] })}
`,
  'prohibition-violated: on the edge, with the carrying port pinned or not': `
//- topology.dot
digraph g {
  p [card="p@1.0.0"]; j [card="j@1.0.0"]; q [card="q@1.0.0"];
  p -> j;
//^^^^^^ error bundle/prohibition-violated: acceptance-criteria
  p -> q [out="plan"];
}
//- cards/p@1.0.0.json
${card({ id: 'p', outputs: [['plan', 'plan'], ['criteria', 'acceptance-criteria']] })}
//- cards/j@1.0.0.json
${card({ id: 'j', inputs: [['plan', 'plan']], cannot: ['acceptance-criteria'], dependencies: ['p'] })}
//- cards/q@1.0.0.json
${card({ id: 'q', inputs: [['plan', 'structured']], cannot: ['acceptance-criteria'], dependencies: ['p'] })}
`,
  'dependencies: missing (card file) and undeclared (edge)': `
//- topology.dot
digraph g { a [card="a@1.0.0"]; b [card="b@1.0.0"]; a -> b; }
//                                                  ^^^^^^ warning bundle/undeclared-dependency
//- cards/a@1.0.0.json
${a}
//- cards/b@1.0.0.yaml
${bDepending('[ghost]', '#              ^^^^^ error bundle/missing-dependency: ghost')}
`,
  'dependencies: a card id that is no node id asks for an edge from the node that pins it': `
//- topology.dot
digraph g { a [card="a@1.0.0"]; b [card="b@1.0.0"]; a -> b; }
//- cards/a@1.0.0.json
${a}
//- cards/b@1.0.0.yaml
${bDepending('[a, intent-router]', '#                 ^^^^^^^^^^^^^ error bundle/missing-dependency: add an edge into b from the node that pins intent-router in topology.dot, or remove the entry.')}
`,
  'dependencies: a predecessor whose pin is broken is named as the one that may be meant': `
//- topology.dot
digraph g { classify [card="intent-router@1.1.0"]; b [card="b@1.0.0"]; classify -> b; }
//                         ^^^^^^^^^^^^^^^^^^^^^ error bundle/missing-card
//- cards/b@1.0.0.yaml
${bDepending('[intent-router]', '#              ^^^^^^^^^^^^^ error bundle/missing-dependency: classify sends to b with no card of the bundle, so it supplies nothing: if it should run intent-router, pin it to that card; else add an edge into b from the node that pins intent-router in topology.dot, or remove the entry.')}
`,
  'dependencies: the dependency is the predecessor itself, whose pin finds no card': `
//- topology.dot
digraph g { writer [card="writer@9.9.9"]; b [card="b@1.0.0"]; writer -> b; }
//                       ^^^^^^^^^^^^^^ error bundle/missing-card
//- cards/b@1.0.0.yaml
${bDepending('[writer]', '#              ^^^^^^ error bundle/missing-dependency: b@1.0.0 depends on "writer", and node writer sends to b, but it has no card of the bundle, so it supplies nothing; pin writer to a card the bundle holds.')}
`,
  'dependencies: a node fed by another node that pins the same card is told to pin another card': `
//- topology.dot
digraph g { w1 [card="a@1.0.0"]; w2 [card="a@1.0.0"]; w1 -> w2; }
//                                                    ^^^^^^^^ warning bundle/undeclared-dependency: pins the same card a@1.0.0
//- cards/a@1.0.0.json
${card({ id: 'a', inputs: [['in', 'text']], outputs: [['out', 'text']] })}
`,
  'dependencies: a node id counts as well as a card id': `
//- topology.dot
digraph g { first [card="a@1.0.0"]; b [card="b@1.0.0"]; first -> b; }
//- cards/a@1.0.0.json
${a}
//- cards/b@1.0.0.json
${card({ id: 'b', inputs: [['in', 'text']], dependencies: ['first'] })}
`,
  'no-entry and no-exit on a pure cycle': `
//- topology.dot
  digraph g { a [card="a@1.0.0"]; b [card="b@1.0.0"]; a -> b -> a; }
//^^^^^^^ warning bundle/no-entry
//^^^^^^^ warning bundle/no-exit
//- cards/a@1.0.0.json
${card({ id: 'a', inputs: [['in', 'text']], outputs: [['out', 'text']], dependencies: ['b'] })}
//- cards/b@1.0.0.json
${card({ id: 'b', inputs: [['in', 'text']], outputs: [['out', 'text']], dependencies: ['a'] })}
`,
  'unreachable-node: a cycle hanging off no entry': `
//- topology.dot
digraph g { a [card="a@1.0.0"]; x [card="x@1.0.0"]; y [card="y@1.0.0"]; x -> y -> x; }
//                              ^ warning bundle/unreachable-node
//                                                  ^ warning bundle/unreachable-node
//- cards/a@1.0.0.json
${card({ id: 'a' })}
//- cards/x@1.0.0.json
${card({ id: 'x', inputs: [['in', 'text']], outputs: [['out', 'text']], dependencies: ['y'] })}
//- cards/y@1.0.0.json
${card({ id: 'y', inputs: [['in', 'text']], outputs: [['out', 'text']], dependencies: ['x'] })}
`,
  'legacy-topology-file: blueprint.dot beside topology.dot': `
//- topology.dot
digraph g { a [card="a@1.0.0"]; }
//- blueprint.dot
//! warning bundle/legacy-topology-file
digraph old { }
//- cards/a@1.0.0.json
${card({ id: 'a' })}
`,
  'unguarded-fork: a parallel node fans out without guards, an agent does not': `
//- topology.dot
digraph g {
  split [card="split@1.0.0"]; pick [card="pick@1.0.0"];
//                            ^^^^ warning attractor/unguarded-fork
  a [card="w@1.0.0"]; b [card="w@1.0.0"]; c [card="v@1.0.0"]; d [card="v@1.0.0"];
  split -> a; split -> b;
  pick -> c; pick -> d;
}
//- cards/split@1.0.0.json
${card({ id: 'split', type: 'parallel', outputs: [['out', 'text']] })}
//- cards/pick@1.0.0.json
${card({ id: 'pick', outputs: [['out', 'text']] })}
//- cards/w@1.0.0.json
${card({ id: 'w', inputs: [['in', 'text']], dependencies: ['split'] })}
//- cards/v@1.0.0.json
${card({ id: 'v', inputs: [['in', 'text']], dependencies: ['pick'] })}
`,
  'misfiled-card: a card saved as cards/blueprint.yaml': `
//- topology.dot
digraph g { a [card="a@1.0.0"]; }
//                  ^^^^^^^^^ error bundle/missing-card
//- cards/blueprint.yaml
id: a
#[0,2) warning bundle/misfiled-card: rename
name: A
type: agent
action: act
spec: ${spec}
inputs: []
outputs: []
version: 1.0.0
`,
  'misfiled-card: a stale copy of a card the bundle holds is to be deleted, not renamed onto it': `
//- topology.dot
digraph g { a [card="a@1.0.0"]; }
//- cards/a@1.0.0.json
${card({ id: 'a', outputs: [['out', 'text']] })}
//- cards/old/blueprint.yaml
id: a
#[0,2) warning bundle/misfiled-card: the bundle holds a@1.0.0 already in cards/a@1.0.0.json; this copy is unused, so delete it
name: A
type: agent
action: act
spec: ${spec}
inputs: []
outputs: []
version: 1.0.0
`,
};

describe('bundle resolution', () => {
  for (const [name, source] of Object.entries(cases)) it(name, () => check(source));

  it('missing-card for a card file with errors points at that file', () => {
    const files = [
      { path: 'topology.dot', text: 'digraph g { a [card="a@1.0.0"]; }' },
      { path: 'cards/a@1.0.0.json', text: card({ id: 'a', outputs: [['out', 'markdwn']] }) },
    ];
    const missing = loadBundle(files, { folderName: 'fixture' }).diagnostics.find((d) => d.code === 'bundle/missing-card');
    assert.ok(missing);
    const related = missing.related ?? [];
    assert.equal(related.length, 1);
    assert.equal(related[0].file, 'cards/a@1.0.0.json');
    assert.equal(files[1].text.slice(related[0].span.start, related[0].span.end), '"a"');
  });

  it('computes a digest over the topology text and the resolved cards only', () => {
    const fixture = parseFixture(`
//- topology.dot
digraph g { a [card="a@1.0.0"]; }
//- cards/a@1.0.0.json
${card({ id: 'a' })}
//- cards/spare@1.0.0.json
${card({ id: 'spare' })}
`);
    const withOrphan = loadBundle(fixture.files).blueprint!.digest;
    const without = loadBundle(fixture.files.filter((f) => !f.path.includes('spare'))).blueprint!.digest;
    assert.match(withOrphan, /^sha256:[0-9a-f]{64}$/);
    assert.equal(withOrphan, without);
  });

  it('keeps resolving after a DOT parse error on another line', () => {
    const fixture = parseFixture(`
//- topology.dot
digraph g {
  a [card="a@1.0.0"];
  b [card=];
  c [card="c@9.0.0"];
}
//- cards/a@1.0.0.json
${card({ id: 'a' })}
`);
    const codes = loadBundle(fixture.files).diagnostics.map((d) => d.code);
    assert.ok(codes.includes('dot/parse-error'));
    assert.ok(codes.includes('bundle/missing-card'), 'c is still resolved after the broken line');
  });
});
