/**
 * Rename: node ids across the topology, card ids across the bundle; the new name
 * checked against the right grammar and refused when taken. Each case: a fixture with a `$0`
 * cursor, the new name, and either the files after the edit (only those listed are compared;
 * a file renamed away must be gone) or the start of the error message.
 */
import assert from 'node:assert/strict';
import { applyWorkspaceEdit, prepareRename, rename } from '../src/ide';
import { parseFixture } from './support/fixture';
import { card, loadWithCursor } from './support/ide';

interface RenameCase {
  readonly fixture: string;
  readonly newName: string;
  /** The placeholder prepareRename offers (and the text its range covers, without quotes). */
  readonly placeholder?: string;
  readonly expected?: string;
  readonly error?: string;
  /** The error comes from the place, not the new name: prepareRename refuses too. */
  readonly refusedBeforeTyping?: true;
}

function checkRename(c: RenameCase): void {
  const { bundle, file, offset } = loadWithCursor(c.fixture);
  const target = prepareRename(bundle, file, offset);
  if (c.placeholder !== undefined) {
    assert.ok(target && !('error' in target), 'expected a rename target');
    assert.equal(target.placeholder, c.placeholder);
  }
  const result = rename(bundle, file, offset, c.newName);
  if (c.error !== undefined) {
    assert.ok('error' in result, `expected an error, got ${JSON.stringify(result)}`);
    assert.ok(result.error.includes(c.error), result.error);
    // a place no edit can rewrite refuses the rename before a name is typed, in the same words
    if (c.refusedBeforeTyping === true) assert.deepEqual(target, { error: result.error });
    else assert.ok(target === undefined || !('error' in target), 'prepareRename refused a rename only the new name makes impossible');
    return;
  }
  assert.ok(target && !('error' in target), 'prepareRename offers the rename that succeeds');
  assert.ok(!('error' in result), 'error' in result ? result.error : '');
  const before = new Map([...bundle.files].map(([path, f]) => [path, f.text] as const));
  const after = applyWorkspaceEdit(before, result);
  for (const r of result.renames ?? []) assert.ok(!after.has(r.from), `${r.from} was renamed away`);
  for (const f of parseFixture(c.expected ?? '').files) assert.equal(after.get(f.path), f.text, `text of ${f.path}`);
}

const a1 = card({ id: 'a', outputs: [['out', 'text']] });
const a2 = card({ id: 'a', version: '2.0.0', outputs: [['out', 'text']] });
const b1 = card({ id: 'b', inputs: [['in', 'text']], dependencies: ['a'] });
const bFromSrc = card({ id: 'b', inputs: [['in', 'text']], dependencies: ['src'] });

const cases: Record<string, RenameCase> = {
  'a node in a second topology file: that file only (card dependencies name the bundle topology\'s nodes)': {
    fixture: `
//- topology.dot
digraph g {
  src [card="a@1.0.0"];
  b [card="b@1.0.0"];
  src -> b;
}
//- legacy.dot
digraph g {
  s$0rc [card="a@1.0.0"];
  b [card="b@1.0.0"];
  src -> b;
}
//- cards/a@1.0.0.yaml
${a1}
//- cards/b@1.0.0.yaml
${bFromSrc}`,
    newName: 'source',
    expected: `
//- legacy.dot
digraph g {
  source [card="a@1.0.0"];
  b [card="b@1.0.0"];
  source -> b;
}
//- cards/b@1.0.0.yaml
${bFromSrc}
//- topology.dot
digraph g {
  src [card="a@1.0.0"];
  b [card="b@1.0.0"];
  src -> b;
}`,
  },
  'a card id from a pin in a second topology file: its pins too': {
    fixture: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; }
//- legacy.dot
digraph g { x [card="a$0@1.0.0"]; }
//- cards/a@1.0.0.yaml
${a1}`,
    newName: 'alpha',
    expected: `
//- topology.dot
digraph g { x [card="alpha@1.0.0"]; }
//- legacy.dot
digraph g { x [card="alpha@1.0.0"]; }`,
  },
  'a node id everywhere it occurs, and nowhere else': {
    fixture: `
//- topology.dot
// start: where the run begins
digraph g {
  label="start here";
  st$0art [card="a@1.0.0", label="start"];
  subgraph cluster_start { start; restart; }
  start -> b -> start_step2;
  {start b} -> c;
  c -> "start";
}`,
    newName: 'begin',
    placeholder: 'start',
    expected: `
//- topology.dot
// start: where the run begins
digraph g {
  label="start here";
  begin [card="a@1.0.0", label="start"];
  subgraph cluster_start { begin; restart; }
  begin -> b -> start_step2;
  {begin b} -> c;
  c -> "begin";
}`,
  },
  'an aligned run of node statements stays aligned when an id grows past the widest': {
    fixture: `
//- topology.dot
digraph g {
  intake  [card="a@1.0.0"];
  ${'$'}0planner [card="a@1.0.0"];
  builder [card="a@1.0.0"];

  x [card="a@1.0.0"];
  intake -> planner -> builder;
}`,
    newName: 'spec_planner',
    expected: `
//- topology.dot
digraph g {
  intake       [card="a@1.0.0"];
  spec_planner [card="a@1.0.0"];
  builder      [card="a@1.0.0"];

  x [card="a@1.0.0"];
  intake -> spec_planner -> builder;
}`,
  },
  'an aligned run closes up when its widest id shrinks': {
    fixture: `
//- topology.dot
digraph g {
  a         [card="a@1.0.0"];
  $0long_name [card="a@1.0.0"];
  bb        [card="a@1.0.0"];
}`,
    newName: 'c',
    expected: `
//- topology.dot
digraph g {
  a  [card="a@1.0.0"];
  c  [card="a@1.0.0"];
  bb [card="a@1.0.0"];
}`,
  },
  'a run of node statements that was not aligned is left as it was': {
    fixture: `
//- topology.dot
digraph g {
  a [card="a@1.0.0"];
  bb$0 [card="a@1.0.0"];
}`,
    newName: 'a_much_longer_id',
    expected: `
//- topology.dot
digraph g {
  a [card="a@1.0.0"];
  a_much_longer_id [card="a@1.0.0"];
}`,
  },
  'a quoted occurrence stays quoted, a bare one stays bare': {
    fixture: `
//- topology.dot
digraph g {
  "al$0pha" -> b;
  alpha -> c;
  d -> "alpha";
}`,
    newName: 'gamma',
    placeholder: 'alpha',
    expected: `
//- topology.dot
digraph g {
  "gamma" -> b;
  gamma -> c;
  d -> "gamma";
}`,
  },
  'an id that needed its quotes is written bare under a name that does not': {
    fixture: `
//- topology.dot
digraph g {
  "the bu$0ilder" -> b;
  d -> "the builder" [label="the builder"];
}`,
    newName: 'the_builder',
    placeholder: 'the builder',
    expected: `
//- topology.dot
digraph g {
  the_builder -> b;
  d -> the_builder [label="the builder"];
}`,
  },
  'from an edge endpoint, with the dependencies naming the node id': {
    fixture: `
//- topology.dot
digraph g {
  w [card="a@1.0.0"];
  r [card="b@1.0.0"];
  w$0 -> r;
}
//- cards/a@1.0.0.yaml
${a1}
//- cards/b@1.0.0.yaml
${card({ id: 'b', inputs: [['in', 'text']], dependencies: ['w'] })}`,
    newName: 'writer',
    expected: `
//- topology.dot
digraph g {
  writer [card="a@1.0.0"];
  r      [card="b@1.0.0"];
  writer -> r;
}
//- cards/b@1.0.0.yaml
${card({ id: 'b', inputs: [['in', 'text']], dependencies: ['writer'] })}`,
  },
  'retry targets naming the node follow it, quoted or bare, on nodes, defaults and the graph': {
    fixture: `
//- topology.dot
digraph g {
  graph [retry_target="plan"];
  fallback_retry_target = plan;
  node [fallback_retry_target=plan];
  pl$0an -> build;
  build [retry_target="plan", label="plan"];
  test [retry_target=build];
}`,
    newName: 'design',
    expected: `
//- topology.dot
digraph g {
  graph [retry_target="design"];
  fallback_retry_target = design;
  node [fallback_retry_target=design];
  design -> build;
  build [retry_target="design", label="plan"];
  test [retry_target=build];
}`,
  },
  'a hyphenated node id can be renamed': {
    fixture: `
//- topology.dot
digraph g { code-b$0uilder; code-builder -> x; }`,
    newName: 'code_builder',
    placeholder: 'code-builder',
    expected: `
//- topology.dot
digraph g { code_builder; code_builder -> x; }`,
  },
  'a number id written straight after an id (`step-1`) is renamed apart from it, never glued to it': {
    fixture: `
//- topology.dot
digraph g { fetch -> step-$01 -> publish; step-1; x -> -1; }`,
    newName: 'first',
    placeholder: '-1',
    expected: `
//- topology.dot
digraph g { fetch -> step first -> publish; step first; x -> first; }`,
  },
  'renaming the id before a glued number keeps the two apart too': {
    fixture: `
//- topology.dot
digraph g { st$0ep-1 -> publish; }`,
    newName: 'n2',
    placeholder: 'step',
    expected: `
//- topology.dot
digraph g { n2-1 -> publish; }`,
  },
  'the same name is no edit': {
    fixture: `
//- topology.dot
digraph g { a$0; }`,
    newName: 'a',
    expected: `
//- topology.dot
digraph g { a; }`,
  },
  'a keyword is refused': {
    fixture: `
//- topology.dot
digraph g { a$0; }`,
    newName: 'node',
    error: '`node` is a DOT keyword, so it cannot name a node; try `node_step`.',
  },
  'a boundary id is refused': {
    fixture: `
//- topology.dot
digraph g { a$0; }`,
    newName: 'exit',
    error: "`exit` is the name Attractor gives the pipeline's exit",
  },
  'a name that is not an identifier is refused': {
    fixture: `
//- topology.dot
digraph g { a$0; }`,
    newName: '2nd-pass',
    error: 'cannot name a node: a node id is letters, digits and `_`, not starting with a digit; try `n_2nd_pass`.',
  },
  'a name another node has is refused': {
    fixture: `
//- topology.dot
digraph g { a$0 -> b; }`,
    newName: 'b',
    error: 'A node named `b` already exists in topology.dot',
  },
  'a card id from its id field: every version, file names, pins and dependencies': {
    fixture: `
//- topology.dot
digraph g {
  x [card="a@1.0.0"];
  z [card = "a@2.0.0"];
  y [card="b@1.0.0"];
  x -> y;
}
//- cards/a@1.0.0.yaml
${a1.replace('id: a', 'id: a$0')}
//- cards/a@2.0.0.yaml
${a2}
//- cards/b@1.0.0.yaml
${b1}`,
    newName: 'alpha',
    placeholder: 'a',
    expected: `
//- topology.dot
digraph g {
  x [card="alpha@1.0.0"];
  z [card = "alpha@2.0.0"];
  y [card="b@1.0.0"];
  x -> y;
}
//- cards/alpha@1.0.0.yaml
${a1.replace('id: a', 'id: alpha')}
//- cards/alpha@2.0.0.yaml
${a2.replace('id: a', 'id: alpha')}
//- cards/b@1.0.0.yaml
${b1.replace('[a]', '[alpha]')}`,
  },
  'a card id from a pin, keeping quotes in a JSON card and a file named otherwise': {
    fixture: `
//- topology.dot
digraph g { x [card="a$0@1.0.0"]; }
//- cards/first.json
{"id": "a", "name": "A", "type": "agent", "action": "act", "spec": "Does one well-defined step of the pipeline and reports.", "inputs": [], "outputs": [], "version": "1.0.0"}`,
    newName: 'alpha',
    placeholder: 'a',
    expected: `
//- topology.dot
digraph g { x [card="alpha@1.0.0"]; }
//- cards/first.json
{"id": "alpha", "name": "A", "type": "agent", "action": "act", "spec": "Does one well-defined step of the pipeline and reports.", "inputs": [], "outputs": [], "version": "1.0.0"}`,
  },
  'a version= pin becomes a card= pin': {
    fixture: `
//- topology.dot
digraph g { a [version="1.0.0"]; }
//- cards/a@1.0.0.yaml
${a1.replace('id: a', 'id: a$0')}`,
    newName: 'alpha',
    expected: `
//- topology.dot
digraph g { a [card="alpha@1.0.0"]; }`,
  },
  'a card id that is not an id is refused': {
    fixture: `
//- cards/a@1.0.0.yaml
${a1.replace('id: a', 'id: a$0')}`,
    newName: 'Alpha_1',
    error: '`Alpha_1` is not a card id',
  },
  'a card id the bundle already holds is refused': {
    fixture: `
//- cards/a@1.0.0.yaml
${a1.replace('id: a', 'id: a$0')}
//- cards/b@1.0.0.yaml
${b1}`,
    newName: 'b',
    error: 'The bundle already holds a card with id `b` (cards/b@1.0.0.yaml)',
  },
  'a card id spelled across a `+` in a pin, or in a default: the value is written anew as one string': {
    fixture: `
//- topology.dot
digraph g {
  x [card="a$0@1.0.0"];
  y [card="a" + "@1.0.0"];
  subgraph s { node [card=" a" + "@1.0.0"]; z; }
}
//- cards/a@1.0.0.yaml
${a1}`,
    newName: 'alpha',
    expected: `
//- topology.dot
digraph g {
  x [card="alpha@1.0.0"];
  y [card="alpha@1.0.0"];
  subgraph s { node [card=" alpha@1.0.0"]; z; }
}`,
  },
  'a rename asked on a pin spelled across a `+`: the whole value is the target, the id the placeholder': {
    fixture: `
//- topology.dot
digraph g {
  x [card="a@1.0.0"];
  y [card="a" + "@1.$00.0"];
}
//- cards/a@1.0.0.yaml
${a1}`,
    newName: 'alpha',
    placeholder: 'a',
    expected: `
//- topology.dot
digraph g {
  x [card="alpha@1.0.0"];
  y [card="alpha@1.0.0"];
}
//- cards/alpha@1.0.0.yaml
${a1.replace('id: a', 'id: alpha')}`,
  },
  'a dependency written as a YAML alias anchored elsewhere: the alias gives way to the new id, the anchored value stays': {
    fixture: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; y [card="b@1.0.0"]; x -> y; }
//- cards/a@1.0.0.yaml
${a1.replace('id: a', 'id: a$0')}
//- cards/b@1.0.0.yaml
${b1.replace('name: b', 'name: &supplier a').replace('dependencies: [a]', 'dependencies: [*supplier]')}`,
    newName: 'alpha',
    expected: `
//- cards/b@1.0.0.yaml
${b1.replace('name: b', 'name: &supplier a').replace('dependencies: [a]', 'dependencies: [alpha]')}`,
  },
  'an alias in the dependencies whose anchor is in the same list follows the renamed entry': {
    fixture: `
//- topology.dot
digraph g { x [card="a$0@1.0.0"]; y [card="b@1.0.0"]; x -> y; }
//- cards/a@1.0.0.yaml
${a1}
//- cards/b@1.0.0.yaml
${b1.replace('dependencies: [a]', 'dependencies: [&supplier a, *supplier]')}`,
    newName: 'alpha',
    expected: `
//- cards/b@1.0.0.yaml
${b1.replace('dependencies: [a]', 'dependencies: [&supplier alpha, *supplier]')}`,
  },
  'a card whose id is a YAML alias: the new id is written in place of the alias': {
    fixture: `
//- topology.dot
digraph g { x [card="a$0@1.0.0"]; }
//- cards/a@1.0.0.yaml
${a1.replace('id: a\nname: a', 'name: &me a\nid: *me')}`,
    newName: 'alpha',
    expected: `
//- topology.dot
digraph g { x [card="alpha@1.0.0"]; }
//- cards/alpha@1.0.0.yaml
${a1.replace('id: a\nname: a', 'name: &me a\nid: alpha')}`,
  },
  'a card pinned by a node id under a version default: the node\'s own statement takes a card= pin': {
    fixture: `
//- topology.dot
digraph g {
  node [version="1.0.0"];
  a;
  a [label="writes"];
}
//- cards/a@1.0.0.yaml
${a1.replace('id: a', 'id: a$0')}`,
    newName: 'alpha',
    expected: `
//- topology.dot
digraph g {
  node [version="1.0.0"];
  a [card="alpha@1.0.0"];
  a [label="writes"];
}
//- cards/alpha@1.0.0.yaml
${a1.replace('id: a', 'id: alpha')}`,
  },
  'a card pinned by a node id under a version default, the node named in edges only: refused, before a name is typed too, saying what to write': {
    fixture: `
//- topology.dot
digraph g {
  node [version="1.0.0"];
  a -> b;
}
//- cards/a@1.0.0.yaml
${a1.replace('id: a', 'id: a$0')}`,
    newName: 'alpha',
    refusedBeforeTyping: true,
    error: 'One place that names it cannot be rewritten, so `a` was not renamed: topology.dot line 3 pins card a@1.0.0 through the id of node `a` under a `node [version=…]` default, and no node statement of `a` can take a pin (one that first names it, or has an attribute list, with no port); give `a` a `card="a@1.0.0"` of its own first.',
  },
  'a node pinned by its id under a version default whose only statement has a port (after a space): refused, as the pin would land between the id and the port': {
    fixture: `
//- topology.dot
digraph g {
  node [version="1.0.0"];
  a$0 :p [label="x"];
  a -> b;
}
//- cards/a@1.0.0.yaml
${a1}`,
    newName: 'writer',
    refusedBeforeTyping: true,
    error: 'One place that names it cannot be rewritten, so `a` was not renamed: topology.dot line 3 pins card a@1.0.0 through the id of node `a`',
  },
  'a node pinned by its id under a version default, named again by a bare statement after an edge made it: refused, as a list there would take the later defaults': {
    fixture: `
//- topology.dot
digraph g {
  node [version="1.0.0"];
  a$0 -> b;
  node [digest="sha256:0000"];
  a;
}
//- cards/a@1.0.0.yaml
${a1}`,
    newName: 'writer',
    refusedBeforeTyping: true,
    error: 'One place that names it cannot be rewritten, so `a` was not renamed: topology.dot line 3 pins card a@1.0.0 through the id of node `a`',
  },
  'a node pinned by its id under a version default: a bare statement that first names it takes the pin': {
    fixture: `
//- topology.dot
digraph g {
  node [version="1.0.0"];
  a$0;
  a -> b;
}
//- cards/a@1.0.0.yaml
${a1}`,
    newName: 'writer',
    expected: `
//- topology.dot
digraph g {
  node [version="1.0.0"];
  writer [card="a@1.0.0"];
  writer -> b;
}`,
  },
  'a node pinned by its id under a version default, with a statement of its own: renamed, it keeps its card through a card= pin there': {
    fixture: `
//- topology.dot
digraph g {
  node [version="1.0.0"];
  subgraph s { a$0 [label="writes"] }
  a -> b;
}
//- cards/a@1.0.0.yaml
${a1}`,
    newName: 'writer',
    expected: `
//- topology.dot
digraph g {
  node [version="1.0.0"];
  subgraph s { writer [card="a@1.0.0"] [label="writes"] }
  writer -> b;
}`,
  },
  'a node pinned by its own version=: renamed, it keeps its card through a card= pin': {
    fixture: `
//- topology.dot
digraph g { a$0 [version="1.0.0"]; a -> b; }
//- cards/a@1.0.0.yaml
${a1}`,
    newName: 'writer',
    expected: `
//- topology.dot
digraph g { writer [card="a@1.0.0"]; writer -> b; }`,
  },
  'a node pinned by its id under a version default: its rename is refused': {
    fixture: `
//- topology.dot
digraph g { node [version="1.0.0"]; a$0 -> b; }
//- cards/a@1.0.0.yaml
${a1}`,
    newName: 'writer',
    refusedBeforeTyping: true,
    error: 'One place that names it cannot be rewritten, so `a` was not renamed: topology.dot line 1 pins card a@1.0.0 through the id of node `a`',
  },
  'a whole dependencies list that is a YAML alias: written out with the new id, the anchored list kept': {
    fixture: `
//- topology.dot
digraph g { x [card="a$0@1.0.0"]; y [card="b@1.0.0"]; x -> y; }
//- cards/a@1.0.0.yaml
${a1}
//- cards/b@1.0.0.yaml
${b1.replace('name: b', 'name: b\nx-suppliers: &suppliers [a]').replace('dependencies: [a]', 'dependencies: *suppliers')}`,
    newName: 'alpha',
    expected: `
//- cards/b@1.0.0.yaml
${b1.replace('name: b', 'name: b\nx-suppliers: &suppliers [a]').replace('dependencies: [a]', 'dependencies: [alpha]')}`,
  },
  'a node whose id is no card id, with a version=: a new name that is a card id would pin a card, so it is refused': {
    fixture: `
//- topology.dot
digraph g { Dr$0aft [version="1.0.0"]; Draft -> b; }
//- cards/writer@1.0.0.yaml
${card({ id: 'writer' })}`,
    newName: 'writer',
    error: 'One place that names it cannot be rewritten, so `Draft` was not renamed: topology.dot line 1 gives node `Draft` a `version=` that pins no card while its id is no card id, and would pin writer@1.0.0 under the new name; remove the `version=`, or pin the card meant with `card=`, first.',
  },
  'the same node renamed to a name that is no card id either: renamed': {
    fixture: `
//- topology.dot
digraph g { Dr$0aft [version="1.0.0"]; Draft -> b; }`,
    newName: 'Writer',
    expected: `
//- topology.dot
digraph g { Writer [version="1.0.0"]; Writer -> b; }`,
  },
  'a retry target spelled across a `+`, or as `<…>`, is written anew': {
    fixture: `
//- topology.dot
digraph g {
  dra$0ft -> check;
  check [retry_target="dra" + "ft"];
  other [fallback_retry_target=<draft>];
  third [retry_target="dr" + "a" + "ft "];
}`,
    newName: 'writer',
    expected: `
//- topology.dot
digraph g {
  writer -> check;
  check [retry_target="writer"];
  other [fallback_retry_target=<writer>];
  third [retry_target="writer"];
}`,
  },
  'nothing to rename in a comment': {
    fixture: `
//- topology.dot
// a$0
digraph g { a; }`,
    newName: 'b',
    error: 'Nothing here can be renamed',
  },
};

/** prepareRename: where the cursor is, and the text its range covers (undefined: nothing to rename there). */
const prepareCases: Record<string, { readonly fixture: string; readonly covers?: string }> = {
  'the id part of a pin: the card id': {
    fixture: `
//- topology.dot
digraph g { x [card="wri$0ter@1.0.0"]; }
//- cards/writer@1.0.0.yaml
${card({ id: 'writer' })}`,
    covers: 'writer',
  },
  'the version part of a pin: nothing (the id is not under the cursor)': {
    fixture: `
//- topology.dot
digraph g { x [card="writer@1.0$0.0"]; }
//- cards/writer@1.0.0.yaml
${card({ id: 'writer' })}`,
  },
  'the opening quote of a pin: nothing': {
    fixture: `
//- topology.dot
digraph g { x [card=$0"writer@1.0.0"]; }
//- cards/writer@1.0.0.yaml
${card({ id: 'writer' })}`,
  },
  'a value in a card that names nothing': {
    fixture: `
//- cards/a@1.0.0.yaml
name: Wri$0ter`,
  },
};

function checkPrepare(c: { readonly fixture: string; readonly covers?: string }): void {
  const { bundle, file, offset } = loadWithCursor(c.fixture);
  const target = prepareRename(bundle, file, offset);
  if (c.covers === undefined) {
    assert.equal(target, undefined);
    return;
  }
  assert.ok(target && !('error' in target), 'expected a rename target');
  assert.ok(target.span.start <= offset && offset <= target.span.end, 'the range holds the cursor');
  assert.equal(bundle.files.get(file)?.text.slice(target.span.start, target.span.end), c.covers);
}

describe('ide: rename', () => {
  for (const [name, c] of Object.entries(cases)) it(name, () => checkRename(c));
  for (const [name, c] of Object.entries(prepareCases)) it(`prepareRename: ${name}`, () => checkPrepare(c));
});
