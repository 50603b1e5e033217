/**
 * The picture-model fixtures (format: ./picture.ts): one per overlay and one per kind of broken
 * bundle, each with what its picture must show written under it. shared/test/picture.test.ts
 * checks the models; shared/test/picture-render.test.ts draws every one of them.
 */
import { cardFile, type PictureRow } from './picture';

/** A criteria producer, with a spec of its own (the others' specs are alike, and a generator's spec like a producer's is a finding). */
const criteriaAuthor = {
  id: 'criteria',
  outputs: [['criteria', 'acceptance-criteria']],
  spec: 'Lists the observable checks that a finished change must pass, numbered, for the judge alone.',
} as const;

export const pictureRows: readonly PictureRow[] = [
  // ---- overlays ----
  {
    name: 'criteria leak: the route from the producer to the generator it reaches',
    fixture: `
//- topology.dot
digraph leak {
  criteria [card="criteria@1.0.0"];
  builder [card="builder@1.0.0"];
  judge [card="judge@1.0.0"];
  criteria -> builder;
  builder -> judge;
  criteria -> judge [label="criteria", out="criteria", in="criteria"];
}
${cardFile(criteriaAuthor)}
${cardFile({ id: 'builder', inputs: [['criteria', 'acceptance-criteria']], outputs: [['code', 'code']], dependencies: ['criteria'] })}
${cardFile({ id: 'judge', type: 'validation', inputs: [['code', 'code'], ['criteria', 'acceptance-criteria']], outputs: [['verdict', 'status']], dependencies: ['builder', 'criteria'] })}
//- @picture
graph leak TB
header "fixture" security 2 (2) autonomy 4 closed-loop missing planning,implementation,testing,debugging,deployment · 0 errors, 2 warnings, 0 infos
node criteria "criteria" agent agent card criteria@1.0.0 warning attractor/unguarded-fork @2:3
node builder "builder" agent agent card builder@1.0.0 risk criteria-leak 2 inferred warning analysis/criteria-leak @3:3
node judge "judge" validation evaluative card judge@1.0.0 @4:3
edge 0 criteria -> builder criteria -> criteria: acceptance-criteria @5:3
edge 1 builder -> judge code -> code: code @6:3
edge 2 criteria -> judge label "criteria" criteria -> criteria: acceptance-criteria @7:3
leak builder: criteria -> builder (edges 0)
fork criteria arms 0, 2
entries criteria
exits judge
`,
  },
  {
    name: 'relayed through a judge: the route through the judge, and a capped cycle that closes on the declared order',
    fixture: `
//- topology.dot
digraph relay {
  rankdir=LR;
  criteria [card="criteria@1.0.0"];
  worker [card="worker@1.0.0"];
  judge [card="judge@1.0.0"];
  fixer [card="fixer@1.0.0"];
  done [card="done@1.0.0"];
  criteria -> judge [out="criteria", in="criteria"];
  worker -> judge [in="work"];
  judge -> fixer [condition="outcome=fail"];
  fixer -> worker [condition="outcome=success"];
  judge -> done [condition="outcome=success"];
}
${cardFile(criteriaAuthor)}
${cardFile({ id: 'worker', inputs: [['patch', 'code']], outputs: [['work', 'code']], dependencies: ['fixer'] })}
${cardFile({ id: 'judge', type: 'validation', inputs: [['work', 'code'], ['criteria', 'acceptance-criteria']], outputs: [['verdict', 'status']], dependencies: ['criteria', 'worker'] })}
${cardFile({ id: 'fixer', inputs: [['verdict', 'status']], outputs: [['patch', 'code']], dependencies: ['judge'], extra: { params: { max_iterations: 3 } } })}
${cardFile({ id: 'done', inputs: [['verdict', 'status']], dependencies: ['judge'] })}
//- @picture
graph relay LR
header "fixture" security 4 (4) autonomy 4 closed-loop missing planning,implementation,testing,debugging,deployment · 0 errors, 2 warnings, 0 infos
node criteria "criteria" agent agent card criteria@1.0.0 @3:3
node worker "worker" agent agent card worker@1.0.0 warning analysis/criteria-relayed-through-judge @4:3
node judge "judge" validation evaluative card judge@1.0.0 @5:3
node fixer "fixer" agent agent card fixer@1.0.0 warning analysis/criteria-relayed-through-judge @6:3
node done "done" agent agent card done@1.0.0 @7:3
edge 0 criteria -> judge criteria -> criteria: acceptance-criteria @8:3
edge 1 worker -> judge work -> work: code @9:3
edge 2 judge -> fixer verdict -> verdict: status if "outcome=fail" @10:3
edge 3 fixer -> worker patch -> patch: code if "outcome=success" closes-cycle @11:3
edge 4 judge -> done verdict -> verdict: status if "outcome=success" @12:3
relay worker through judge: criteria -> judge -> fixer -> worker (edges 0, 2, 3)
relay fixer through judge: criteria -> judge -> fixer (edges 0, 2)
entries criteria
exits done
`,
  },
  {
    name: 'unbounded loops: a cycle and a self-loop with no iteration cap',
    fixture: `
//- topology.dot
digraph loops {
  first [card="first@1.0.0"];
  a [card="a@1.0.0"];
  b [card="b@1.0.0"];
  c [card="c@1.0.0"];
  first -> a -> b;
  b -> a [condition="outcome=fail"];
  b -> c [condition="outcome=success"];
  c -> c;
}
${cardFile({ id: 'first', outputs: [['out', 'text']] })}
${cardFile({ id: 'a', inputs: [['in', 'text']], outputs: [['out', 'text']], dependencies: ['first', 'b'] })}
${cardFile({ id: 'b', inputs: [['in', 'text']], outputs: [['out', 'text']], dependencies: ['a'] })}
${cardFile({ id: 'c', inputs: [['in', 'text']], outputs: [['out', 'text']], dependencies: ['b', 'c'] })}
//- @picture
graph loops TB
header "fixture" security 3 (2.5) autonomy 4 closed-loop missing planning,implementation,testing,debugging,deployment · 0 errors, 4 warnings, 1 info
node first "first" agent agent card first@1.0.0 @2:3
node a "a" agent agent card a@1.0.0 risk unbounded-loop 1.5 inferred warning analysis/unbounded-loop @3:3
node b "b" agent agent card b@1.0.0 risk unbounded-loop 1.5 inferred warning analysis/unbounded-loop @4:3
node c "c" agent agent card c@1.0.0 risk unbounded-loop 1.5 inferred warning analysis/unbounded-loop @5:3
edge 0 first -> a out -> in: text @6:3
edge 1 a -> b out -> in: text @6:12
edge 2 b -> a out -> in: text if "outcome=fail" closes-cycle @7:3
edge 3 b -> c out -> in: text if "outcome=success" @8:3
edge 4 c -> c out -> in: text closes-cycle info dot/self-loop @9:3
loop a, b (edges 1, 2)
loop c (edges 4)
entries first
finding warning bundle/no-exit
`,
  },
  {
    name: 'unguarded fork: the arms with neither condition nor weight; a parallel node draws none',
    fixture: `
//- topology.dot
digraph forks {
  pick [card="step@1.0.0"];
  split [card="split@1.0.0"];
  x [card="end@1.0.0"];
  y [card="end@1.0.0"];
  pick -> split;
  pick -> x [condition="outcome=success"];
  pick -> y;
  split -> x;
  split -> y;
}
${cardFile({ id: 'step', outputs: [['out', 'text']] })}
${cardFile({ id: 'split', type: 'parallel', inputs: [['in', 'text']], outputs: [['out', 'text']], dependencies: ['step'] })}
${cardFile({ id: 'end', inputs: [['in', 'text']], dependencies: ['step', 'split'] })}
//- @picture
graph forks TB
header "fixture" security 4 (4) autonomy 4 closed-loop missing planning,implementation,testing,debugging,deployment · 0 errors, 1 warning, 0 infos
node pick "step" agent agent card step@1.0.0 warning attractor/unguarded-fork @2:3
node split "split" parallel orchestration card split@1.0.0 @3:3
node x "end" agent agent card end@1.0.0 @4:3
node y "end" agent agent card end@1.0.0 @5:3
edge 0 pick -> split out -> in: text @6:3
edge 1 pick -> x out -> in: text if "outcome=success" @7:3
edge 2 pick -> y out -> in: text @8:3
edge 3 split -> x out -> in: text @9:3
edge 4 split -> y out -> in: text @10:3
fork pick arms 0, 2
entries pick
exits x, y
`,
  },
  {
    name: 'entries, exits and unreachable nodes',
    fixture: `
//- topology.dot
digraph ends {
  a [card="first@1.0.0"];
  b [card="step@1.0.0"];
  island [card="loop@1.0.0"];
  other [card="loop@1.0.0"];
  a -> b;
  island -> other -> island;
}
${cardFile({ id: 'first', outputs: [['out', 'text']] })}
${cardFile({ id: 'step', inputs: [['in', 'text']], dependencies: ['first'] })}
${cardFile({ id: 'loop', inputs: [['in', 'text']], outputs: [['out', 'text']], dependencies: ['loop'], extra: { params: { max_iterations: 2 } } })}
//- @picture
graph ends TB
header "fixture" security 4 (4) autonomy 4 closed-loop missing planning,implementation,testing,debugging,deployment · 0 errors, 2 warnings, 0 infos
node a "first" agent agent card first@1.0.0 @2:3
node b "step" agent agent card step@1.0.0 @3:3
node island "loop" agent agent card loop@1.0.0 warning bundle/unreachable-node @4:3
node other "loop" agent agent card loop@1.0.0 warning bundle/unreachable-node @5:3
edge 0 a -> b out -> in: text @6:3
edge 1 island -> other out -> in: text @7:3
edge 2 other -> island out -> in: text closes-cycle @7:13
entries a
exits b
unreachable island, other
`,
  },
  {
    name: 'risk markers declared and inferred, with their weights; a person in the loop; phases',
    fixture: `
//- topology.dot
digraph risks {
  search [card="search@1.0.0"];
  writer [card="writer@1.0.0"];
  gate [card="gate@1.0.0"];
  publish [card="publish@1.0.0"];
  search -> writer -> gate -> publish;
}
${cardFile({ id: 'search', name: 'Web search', phases: ['planning'], outputs: [['found', 'text']], extra: { tools: ['web-search'] } })}
${cardFile({ id: 'writer', phases: ['implementation'], inputs: [['found', 'text']], outputs: [['draft', 'markdown']], dependencies: ['search'] })}
${cardFile({ id: 'gate', type: 'human-gate', phases: ['deployment'], inputs: [['draft', 'markdown']], outputs: [['approval', 'status']], dependencies: ['writer'] })}
${cardFile({ id: 'publish', type: 'tool', phases: ['deployment'], inputs: [['approval', 'status']], outputs: [], dependencies: ['gate'], extra: { risk_markers: ['irreversible-action'] } })}
//- @picture
graph risks TB
header "fixture" security 2 (1.5) autonomy 3 conditional covered planning,implementation,deployment missing testing,debugging · 0 errors, 1 warning, 0 infos
node search "Web search" agent agent card search@1.0.0 phases planning risk unvalidated-external-access 1 inferred warning analysis/unvalidated-external-access @2:3
node writer "writer" agent agent card writer@1.0.0 phases implementation @3:3
node gate "gate" human-gate human-in-the-loop card gate@1.0.0 phases deployment human @4:3
node publish "publish" tool tool card publish@1.0.0 phases deployment risk irreversible-action 1.5 declared @5:3
edge 0 search -> writer found -> found: text @6:3
edge 1 writer -> gate draft -> draft: markdown @6:13
edge 2 gate -> publish approval -> approval: status @6:23
entries search
exits publish
`,
  },
  // ---- broken bundles ----
  {
    name: 'no topology: nothing drawn, the reason listed',
    fixture: `
${cardFile({ id: 'a' })}
//- @picture
graph - TB not drawn
header "" · 1 error, 0 warnings, 0 infos
settle blocks-export (dot/parse-error)
finding error dot/parse-error
`,
  },
  {
    name: 'an undirected topology: nothing drawn, the reason listed',
    fixture: `
//- topology.dot
graph g { a -- b; }
//- @picture
graph - TB not drawn
header "" · 1 error, 0 warnings, 0 infos
settle blocks-export (dot/not-directed)
finding error dot/not-directed
`,
  },
  {
    name: 'a parse error: what the parser recovered is drawn',
    fixture: `
//- topology.dot
digraph broken {
  a [card="a@1.0.0";
  a -> b
  b -> c;
}
${cardFile({ id: 'a', outputs: [['out', 'text']] })}
//- @picture
graph broken TB
header "fixture" security 4 (4) autonomy 1 assisted missing planning,implementation,testing,debugging,deployment · 3 errors, 2 warnings, 0 infos
node a "a" agent agent card a@1.0.0 error attractor/attr-separator, dot/parse-error @2:3
node b "b" - none card - unresolved error bundle/missing-card @3:8
node c "c" - none card - unresolved error bundle/missing-card @4:8
edge 0 a -> b @3:3
edge 1 b -> c @4:3
entries a
exits c
settle blocks-export (dot/parse-error)
settle no-card b (bundle/missing-card)
settle no-card c (bundle/missing-card)
settle carries-nothing edge 0: Edge a -> b carries nothing yet: node b has no card, so no port can be paired along it.
settle carries-nothing edge 1: Edge b -> c carries nothing yet: nodes b and c have no card, so no port can be paired along it.
finding warning analysis/unresolved-node
`,
  },
  {
    name: 'nodes without a card: a pin the bundle lacks, and no pin at all',
    fixture: `
//- topology.dot
digraph cardless {
  a [card="a@2.0.0"];
  b;
  c [card="c@1.0.0"];
  a -> b -> c;
}
${cardFile({ id: 'a' })}
${cardFile({ id: 'c', inputs: [['in', 'text']] })}
//- @picture
graph cardless TB
header "fixture" security 4 (4) autonomy 1 assisted missing planning,implementation,testing,debugging,deployment · 2 errors, 2 warnings, 0 infos
node a "a" - none card a@2.0.0 unresolved error bundle/missing-card @2:3
node b "b" - none card - unresolved error bundle/missing-card @3:3
node c "c" agent agent card c@1.0.0 @4:3
edge 0 a -> b @5:3
edge 1 b -> c @5:8
entries a
exits c
settle no-card a (bundle/missing-card)
settle no-card b (bundle/missing-card)
settle carries-nothing edge 0: Edge a -> b carries nothing yet: nodes a and b have no card, so no port can be paired along it.
settle carries-nothing edge 1: Edge b -> c carries nothing yet: node b has no card, so no port can be paired along it.
finding warning analysis/unresolved-node
finding warning bundle/orphan-card
`,
  },
  {
    name: 'a card with errors: the node shows what its draft says, with the card findings',
    fixture: `
//- topology.dot
digraph drafty {
  a [card="a@1.0.0"];
}
//- cards/a@1.0.0.json
{"id":"a","name":"Checker","type":"validation","spec":"Checks the artefact against its criteria and says why.","inputs":[],"outputs":[],"version":"1.0.0"}
//- @picture
graph drafty TB
header "fixture" security 4 (4) autonomy 1 assisted missing planning,implementation,testing,debugging,deployment · 2 errors, 1 warning, 0 infos
node a "Checker" validation evaluative card a@1.0.0 unresolved error analysis/unresolved-node, bundle/missing-card, card/missing-field @2:3
entries a
exits a
settle no-card a (bundle/missing-card)
`,
  },
  {
    name: 'edges that carry nothing: a port the card lacks, types that do not fit, a card without outputs',
    fixture: `
//- topology.dot
digraph ports {
  a [card="a@1.0.0"];
  b [card="b@1.0.0"];
  c [card="c@1.0.0"];
  d [card="d@1.0.0"];
  a -> b [out="nope"];
  a -> c;
  d -> b;
}
${cardFile({ id: 'a', outputs: [['code', 'code']] })}
${cardFile({ id: 'b', inputs: [['in', 'code']], dependencies: ['a', 'd'] })}
${cardFile({ id: 'c', inputs: [['plan', 'plan']], dependencies: ['a'] })}
${cardFile({ id: 'd' })}
//- @picture
graph ports TB
header "fixture" security 4 (4) autonomy 4 closed-loop missing planning,implementation,testing,debugging,deployment · 3 errors, 1 warning, 0 infos
node a "a" agent agent card a@1.0.0 warning attractor/unguarded-fork @2:3
node b "b" agent agent card b@1.0.0 @3:3
node c "c" agent agent card c@1.0.0 @4:3
node d "d" agent agent card d@1.0.0 @5:3
edge 0 a -> b error bundle/port-mismatch @6:3
edge 1 a -> c error bundle/type-mismatch @7:3
edge 2 d -> b error bundle/port-mismatch @8:3
fork a arms 0, 1
entries a, d
exits b, c
settle carries-nothing edge 0 (bundle/port-mismatch)
settle carries-nothing edge 1 (bundle/type-mismatch)
settle carries-nothing edge 2 (bundle/port-mismatch)
`,
  },
  {
    name: 'a violated prohibition blocks export; an input nothing feeds',
    fixture: `
//- topology.dot
digraph prohibited {
  a [card="a@1.0.0"];
  b [card="b@1.0.0"];
  a -> b;
}
${cardFile({ id: 'a', outputs: [['secret', 'text']] })}
${cardFile({ id: 'b', inputs: [['in', 'text'], ['plan', 'plan']], dependencies: ['a'], extra: { cannot: ['text'] } })}
//- @picture
graph prohibited TB
header "fixture" security 4 (4) autonomy 4 closed-loop missing planning,implementation,testing,debugging,deployment · 1 error, 0 warnings, 0 infos
node a "a" agent agent card a@1.0.0 @2:3
node b "b" agent agent card b@1.0.0 @3:3
edge 0 a -> b secret -> in: text error bundle/prohibition-violated @4:3
entries a
exits b
settle blocks-export b (bundle/prohibition-violated)
settle unfed-input b: Input "plan" (plan) of node b receives nothing: no edge into b is wired to it; wire one with in="plan", or mark the input required: false.
`,
  },
  {
    name: 'an empty graph',
    fixture: `
//- topology.dot
digraph empty {}
//- @picture
graph empty TB
header "fixture" security 4 (4) autonomy 1 assisted missing planning,implementation,testing,debugging,deployment · 0 errors, 2 warnings, 0 infos
finding warning analysis/empty-graph
finding warning analysis/empty-graph
`,
  },
];
