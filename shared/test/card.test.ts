import assert from 'node:assert/strict';
import type { Card } from '../src/card/card-model';
import { expectedCardPath, readCard, suggestTerm } from '../src/check/card';
import type { Diagnostic } from '../src/diagnostics';
import { coreVocabulary, createVocabulary } from '../src/vocabulary';
import type { Term, Vocabulary } from '../src/vocabulary/types';
import { lineIndex } from '../src/text';
import { assertDiagnostics, parseFixture } from './support/fixture';

// YAML bodies are indented by two spaces (legal YAML: the root mapping may sit at any column) so
// that `#` annotations can point at column 0 of the text.

/** Reads every file of a fixture as a card and compares the `card/*` findings with the annotations. */
function check(source: string, vocabulary: Vocabulary = coreVocabulary): void {
  const fixture = parseFixture(source);
  const diagnostics: Diagnostic[] = [];
  for (const file of fixture.files) {
    const result = readCard(file, vocabulary);
    for (const d of result.diagnostics) {
      assert.equal(d.location.file, file.path);
      const s = d.location.span;
      assert.ok(s && s.start >= 0 && s.start <= s.end && s.end <= file.text.length, `range inside the file: ${d.code}`);
      if (d.code !== 'card/parse-error' && !(d.code === 'card/bad-type' && d.message.startsWith('The card'))) {
        assert.ok(d.location.path, `a path on ${d.code}: ${d.message}`);
      }
      assert.match(d.message, /[.?]$/, 'a message is a sentence');
    }
    if (result.diagnostics.some((d) => d.severity === 'error')) assert.equal(result.card, undefined);
    else assert.ok(result.card, `${file.path} yields a card when nothing is an error`);
    diagnostics.push(...result.diagnostics);
  }
  assertDiagnostics(fixture, diagnostics, ['card/']);
}

const spec = 'Write the outline of the report from the plan, one section per line.';
/** The required fields other than id and version, indented, valid. */
const rest = `  name: Outline writer
  type: agent
  action: Write the outline.
  spec: ${spec}
  inputs: []
  outputs: []`;

const deprecatedTerms: Term[] = [
  { id: 'me/old-text', kind: 'data-type', label: 'Old text', meaning: 'Text, under its old name.', broader: 'text', deprecated: { replacedBy: 'text' } },
  { id: 'me/gone', kind: 'data-type', label: 'Gone', meaning: 'A type with no successor.', broader: 'text', deprecated: {} },
  { id: 'me/runner', kind: 'node-type', label: 'Runner', meaning: 'Runs a command.', broader: 'shell-tool' },
];
const localVocabulary = createVocabulary(deprecatedTerms).vocabulary;

interface Case {
  readonly name: string;
  readonly source: string;
  readonly vocabulary?: Vocabulary;
}

const cases: Case[] = [
  {
    name: 'a clean YAML card fires nothing',
    source: `
//- cards/outline-writer@1.0.0.yaml
  id: outline-writer
  name: Outline writer
  type: agent
  phase: [planning, implementation]
  action: Write the outline.
  spec: ${spec}
  model: a-model
  agent: an-agent
  tools: [web-search, file-io]
  mcp: [my-server]
  skill: outlining
  params:
    max_iterations: 3
    nested: {list: [1, "two", true, null], map: {a: 1.5}}
  inputs:
    - name: plan
      type: plan
      description: The plan to follow.
      required: false
  outputs:
    - name: outline
      type: markdown
  dependencies: [planner]
  cannot: [acceptance-criteria]
  will_not: [publish anything]
  risk_markers: [unchecked-write]
  notes: Plain notes.
  version: 1.0.0
  author: someone
  provenance: hand-written
`,
  },
  {
    name: 'a clean JSON card fires nothing',
    source: `
//- cards/outline-writer@1.0.0.json
{
  "id": "outline-writer", "name": "Outline writer", "type": "agent", "phase": "planning",
  "action": "Write the outline.", "spec": "${spec}",
  "params": {"k": [1, {"a": null}]},
  "inputs": [{"name": "plan", "type": "plan"}], "outputs": [],
  "version": "1.0.0"
}
`,
  },
  {
    name: 'parse-error: a YAML syntax error is an error at its position, and nothing else is reported',
    source: `
//- cards/x@1.0.0.yaml
  id: x
  name: "unclosed
  version: 1.0.0
#              ^ error card/parse-error: Missing closing "quote
`,
  },
  {
    name: 'parse-error: a repeated key is an error on the repeat',
    source: `
//- cards/x@1.0.0.yaml
  id: x
  id: y
# ^^ error card/parse-error: keep one of the repeated keys
`,
  },
  {
    name: 'parse-error: a YAML warning is a warning and the card still loads',
    source: `
//- cards/x@1.0.0.yaml
  id: x
  version: 1.0.0
${rest}
  notes: !custom plain
#        ^^^^^^^ warning card/parse-error: remove the tag
`,
  },
  {
    name: 'parse-error: a JSON syntax error is an error at its exact offset',
    source: `
//- cards/x@1.0.0.json
{"id": "x", "name": "n",}
//                      ^ error card/parse-error: no trailing comma
`,
  },
  {
    name: 'parse-error: a JSON card with a byte order mark says so, and how to see it',
    source: `
//- cards/x@1.0.0.json
\ufeff{"id": "x"}
//[0,1) error card/parse-error: The file starts with a byte order mark (U+FEFF), which JSON does not allow; save it as UTF-8 without one
`,
  },
  {
    name: 'parse-error: JSON is strict (no comments, no single quotes)',
    source: `
//- cards/a@1.0.0.json
{"id": 'a'}
//     ^ error card/parse-error: A JSON string takes double quotes, not single ones
//- cards/c@1.0.0.json
{'id': "c"}
//[1,2) error card/parse-error: A JSON key takes double quotes, not single ones
//- cards/d@1.0.0.json
{"id": "d",
  // the card's name
//^ error card/parse-error: JSON has no comments; remove the comment
  "name": "D"}
//- cards/e@1.0.0.json
{"id": "e", "tools": ["ci",]}
//                         ^ error card/parse-error: no trailing comma before \`]\`
//- cards/b@1.0.0.json
{"id": "b" # comment
//         ^ error card/parse-error: A \`,\` or \`}\` is expected
}
`,
  },
  {
    name: 'parse-error: an alias naming no anchor is an error on the alias',
    source: `
//- cards/x@1.0.0.yaml
  id: x
  version: 1.0.0
${rest}
  notes: *nowhere
#        ^^^^^^^^ error card/parse-error: \`*nowhere\`
`,
  },
  {
    name: 'parse-error: an alias bomb is refused at the alias that passes the limit, without expanding it',
    source: `
//- cards/x@1.0.0.yaml
  a: &a [x, x, x, x, x, x, x, x, x, x]
  b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
  c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
#                                        ^^ error card/parse-error: more than 100 alias expansions
  d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
  e: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]
`,
  },
  {
    name: 'parse-error: a second YAML document after `---` refuses the card, at the marker',
    source: `
//- cards/x@1.0.0.yaml
  id: x
  version: 1.0.0
${rest}
---
#[0,3) error card/parse-error: a card file holds a single card
  id: z
//- cards/y@1.0.0.yaml
  id: y
  version: 1.0.0
${rest}
---
#[0,3) error card/parse-error: starts a second YAML document
`,
  },
  {
    name: 'parse-error: content after a `...` end marker, and a second `...`, refuse the card',
    source: `
//- cards/x@1.0.0.yaml
  id: x
  version: 1.0.0
${rest}
...
  id: z
#[0,7) error card/parse-error: after the \`...\` that ends the first
//- cards/y@1.0.0.yaml
  id: y
  version: 1.0.0
${rest}
...
...
#[0,3) error card/parse-error: delete the extra \`...\` line
`,
  },
  {
    name: 'parse-error does not fire on a leading `---` or a trailing `...` followed by comments',
    source: `
//- cards/x@1.0.0.yaml
---
  id: x
  version: 1.0.0
${rest}
...
# the end of the card

//- cards/y@1.0.0.yaml
--- # one card
  id: y
  version: 1.0.0
${rest}
... # done
`,
  },
  {
    name: 'missing-field: an absent required field sits on the first line of the card',
    source: `
//- cards/x@1.0.0.yaml
  id: x
# ^^^^^ error card/missing-field: \`name\`
# ^^^^^ error card/missing-field: \`action\`
  type: agent
  spec: ${spec}
  inputs: []
  outputs: []
  version: 1.0.0
`,
  },
  {
    name: 'missing-field: outputs absent, with the fix in the message',
    source: `
//- cards/x@1.0.0.yaml
  id: x
# ^^^^^ error card/missing-field: \`outputs: []\`
  name: X
  type: agent
  action: Act.
  spec: ${spec}
  inputs: []
  version: 1.0.0
`,
  },
  {
    name: 'missing-field: a key with no value sits on the key; a blank string on the value',
    source: `
//- cards/x@1.0.0.yaml
  id: x
  name:
# ^^^^ error card/missing-field: \`name\` has no value
  type: agent
  action: "   "
#         ^^^^^ error card/missing-field: \`action\` is blank
  spec: ${spec}
  inputs:
# ^^^^^^ error card/missing-field: \`inputs\` has no value
  outputs: []
  version: ~
# ^^^^^^^ error card/missing-field
`,
  },
  {
    name: 'missing-field: a port without name or type sits on the port\'s first line',
    source: `
//- cards/x@1.0.0.yaml
  id: x
  version: 1.0.0
  name: X
  type: agent
  action: Act.
  spec: ${spec}
  inputs:
    - type: text
#     ^^^^^^^^^^ error card/missing-field: has no \`name\`
      description: The input.
    - name: b
#     ^^^^^^^ error card/missing-field: has no \`type\`
    - {name: c, type: ""}
#                     ^^ error card/missing-field: \`inputs[2].type\` is blank
  outputs: []
`,
  },
  {
    name: 'bad-type: a document that is not a mapping is an error on the whole value, with no path',
    source: `
//- cards/x@1.0.0.yaml
  - id: x
# ^^^... error card/bad-type: The card is a list
  - name: y
`,
  },
  {
    name: 'bad-type: an entry written as nothing (a `-` alone, as typed before the entry) stands on its `-`',
    source: `
//- cards/x@1.0.0.yaml
id: x
name: X
type: agent
action: run
spec: ${spec}
tools:
  - git
  -
# ^ error card/bad-type: \`tools[1]\` is empty
  - shell
phase:
  - testing
  -${'  '}
# ^ error card/bad-type: \`phase[1]\`
inputs: []
outputs: []
version: 1.0.0
`,
  },
  {
    name: 'bad-type: a required string of another type, on the value, with a quoting fix',
    source: `
//- cards/x@1.0.0.yaml
  id: x
  name: 3
#       ^ error card/bad-type: quote it
  type: agent
  action: [a, b]
#         ^^^^^^ error card/bad-type: \`action\` is a list
  spec: ${spec}
  inputs: []
  outputs: []
  version: 1.0
#          ^^^ error card/bad-type: \`version: "1.0"\`
`,
  },
  {
    name: 'bad-type: optional strings, lists and entries of the wrong type',
    source: `
//- cards/x@1.0.0.yaml
  id: x
  version: 1.0.0
${rest}
  model: 4
#        ^ error card/bad-type: \`model\` is a number
  tools: web-search
#        ^^^^^^^^^^ error card/bad-type: \`tools: [web-search]\`
  mcp: [server, 7, {a: b}]
#               ^ error card/bad-type: \`mcp[1]\` is a number
#                  ^^^^^^ error card/bad-type: \`mcp[2]\` is a mapping
  dependencies: {a: b}
#               ^^^^^^ error card/bad-type: must be a list of strings
  notes: null
  author: ~
`,
  },
  {
    name: 'bad-type: unknown top-level keys are info on the key, with a spelling suggestion when close',
    source: `
//- cards/x@1.0.0.yaml
  id: x
  version: 1.0.0
${rest}
  colour: red
# ^^^^^^ info card/bad-type: check its spelling
  toolz: []
# ^^^^^ info card/bad-type: did you mean \`tools\`
  __proto__: {polluted: true}
# ^^^^^^^^^ info card/bad-type: \`__proto__\` is not a card field
  constructor: x
# ^^^^^^^^^^^ info card/bad-type: \`constructor\` is not a card field
`,
  },
  {
    name: 'bad-type: both spellings of an aliased field are info on the alias, and the wire key is read',
    source: `
//- cards/x@1.0.0.yaml
  id: x
  version: 1.0.0
${rest}
  phase: testing
  phases: [bogus]
# ^^^^^^ info card/bad-type: remove \`phases\`
  will_not: [a]
  willNot: [b]
# ^^^^^^^ info card/bad-type: remove \`willNot\`
  risk_markers: []
  riskMarkers: []
# ^^^^^^^^^^^ info card/bad-type: \`risk_markers\` is read
`,
  },
  {
    name: 'bad-type: the alias spellings alone are read like the wire keys',
    source: `
//- cards/x@1.0.0.yaml
  id: x
  version: 1.0.0
${rest}
  phases: [testing, tseting]
#                   ^^^^^^^ error card/unknown-phase: replace it with \`testing\`
  riskMarkers: [unchecked-write, nope]
#                                ^^^^ error card/unknown-term
  willNot: [acceptance-criteria]
#           ^^^^^^^^^^^^^^^^^^^ warning card/prohibition-misfiled
`,
  },
  {
    name: 'bad-type: ports that are not mappings, a non-boolean required, and required on an output',
    source: `
//- cards/x@1.0.0.yaml
  id: x
  version: 1.0.0
  name: X
  type: agent
  action: Act.
  spec: ${spec}
  inputs:
    - just-a-name
#     ^^^^^^^^^^^ error card/bad-type: a port must be a mapping
    - name: a
      type: text
      required: "yes"
#               ^^^^^ error card/bad-type: \`true\` or \`false\`
    - name: b
      type: text
      required: ~
  outputs:
    - name: out
      type: text
      required: true
#     ^^^^^^^^ info card/bad-type: only an input can be optional
`,
  },
  {
    name: 'bad-type: inputs that is not a list, and params that is not a mapping',
    source: `
//- cards/x@1.0.0.yaml
  id: x
  version: 1.0.0
  name: X
  type: agent
  action: Act.
  spec: ${spec}
  inputs: {name: a, type: text}
#         ^^^^^^^^^^^^^^^^^^^^^ error card/bad-type: must be a list of ports
  outputs: []
  params: [1, 2]
#         ^^^^^^ error card/bad-type: must be a mapping of names to values
`,
  },
  {
    name: 'bad-type: params values without a JSON form, each at its own path',
    source: `
//- cards/x@1.0.0.yaml
  id: x
  version: 1.0.0
${rest}
  params:
    ok: [1, {a: b}]
    nan: .nan
#        ^^^^ error card/bad-type: \`params.nan\` cannot be stored as JSON
    nested:
      list: [1, -.inf]
#               ^^^^^ error card/bad-type: \`params.nested.list[1]\`
    cycle: &loop
      self: *loop
#           ^^^^^ error card/bad-type: contain itself
    shared: &s {x: 1}
    again: [*s, *s]
`,
  },
  {
    name: 'bad-type: params nesting deeper than 100 levels is an error at level 101',
    source: `
//- cards/x@1.0.0.yaml
  id: x
  version: 1.0.0
${rest}
  params:
    ok: ${'['.repeat(99)}1${']'.repeat(99)}
    deep: ${'['.repeat(100)}1${']'.repeat(100)}
#         ${' '.repeat(100)}^ error card/bad-type: more than 100 levels
`,
  },
  {
    name: 'bad-type: params nesting deeper than 100 levels through an alias is an error at the alias',
    source: `
//- cards/x@1.0.0.yaml
  id: x
  version: 1.0.0
${rest}
  params:
    base: &deep ${'['.repeat(60)}1${']'.repeat(60)}
    inside: ${'['.repeat(50)}*deep${']'.repeat(50)}
#           ${' '.repeat(50)}^^^^^ error card/bad-type: through this alias
`,
  },
  {
    name: 'bad-id: the id value, with a suggested id',
    source: `
//- cards/x@1.0.0.yaml
  id: Outline_Writer
#     ^^^^^^^^^^^^^^ error card/bad-id: \`outline-writer\`
  version: 1.0.0
${rest}
//- cards/y@1.0.0.yaml
  id: a/b/c
#     ^^^^^ error card/bad-id
  version: 1.0.0
${rest}
`,
  },
  {
    name: 'bad-id does not fire on a namespaced id; filename-mismatch wants the namespace folder',
    source: `
//- cards/acme/outline-writer@1.0.0.yaml
  id: acme/outline-writer
  version: 1.0.0
${rest}
//- cards/outline-writer@2.0.0.yaml
  id: acme/outline-writer
#     ^^^^^^^^^^^^^^^^^^^ info card/filename-mismatch: cards/acme/outline-writer@2.0.0.yaml
  version: 2.0.0
${rest}
`,
  },
  {
    name: 'bad-version: not strict semver, on the value, with a suggestion',
    source: `
//- cards/a@1.0.0.yaml
  id: a
  version: v1.2
#          ^^^^ error card/bad-version: \`1.2.0\`
${rest}
//- cards/b@1.0.0.yaml
  id: b
  version: "01.0.0"
#          ^^^^^^^^ error card/bad-version: \`1.0.0\`
${rest}
//- cards/c@1.0.0-rc.1+build.5.yaml
  id: c
  version: 1.0.0-rc.1+build.5
${rest}
`,
  },
  {
    name: 'duplicate-port: the second name, per side; the same name on both sides is fine',
    source: `
//- cards/x@1.0.0.yaml
  id: x
  version: 1.0.0
  name: X
  type: agent
  action: Act.
  spec: ${spec}
  inputs:
    - {name: a, type: text}
    - {name: a, type: json}
#            ^ error card/duplicate-port: Port \`a\`
  outputs:
    - {name: a, type: text}
`,
  },
  {
    name: 'unknown-term: type, tools, cannot, risk markers and port types, with the nearest term',
    source: `
//- cards/x@1.0.0.yaml
  id: x
  version: 1.0.0
  name: X
  type: agnet
#       ^^^^^ error card/unknown-term: replace it with \`agent\`
  action: Act.
  spec: ${spec}
  tools: [web-serch, zzzzzz]
#         ^^^^^^^^^ error card/unknown-term: \`web-search\`
#                    ^^^^^^ error card/unknown-term: use a known tool
  cannot: [pii, write to the index]
#          ^^^ error card/unknown-term
#               ^^^^^^^^^^^^^^^^^^ warning card/unknown-term: move the sentence to \`will_not\`
  risk_markers: [unchecked-writes]
#                ^^^^^^^^^^^^^^^^ error card/unknown-term: \`unchecked-write\`
  inputs:
    - {name: a, type: jsno}
#                     ^^^^ error card/unknown-term: \`json\`
  outputs: []
`,
  },
  {
    name: 'wrong-term-kind: a known term of another kind',
    source: `
//- cards/x@1.0.0.yaml
  id: x
  version: 1.0.0
  name: X
  type: text
#       ^^^^ error card/wrong-term-kind: \`text\` is a data type, but \`type\` takes a node type
  action: Act.
  spec: ${spec}
  tools: [testing]
#         ^^^^^^^ error card/wrong-term-kind
  inputs: []
  outputs:
    - {name: a, type: shell}
#                     ^^^^^ error card/wrong-term-kind: takes a data type
`,
  },
  {
    name: 'deprecated-term: a warning naming the replacement, or saying there is none',
    vocabulary: localVocabulary,
    source: `
//- cards/x@1.0.0.yaml
  id: x
  version: 1.0.0
  name: X
  type: agent
  action: Act.
  spec: ${spec}
  inputs:
    - {name: a, type: me/old-text}
#                     ^^^^^^^^^^^ warning card/deprecated-term: replace it with \`text\`
    - {name: b, type: me/gone}
#                     ^^^^^^^ warning card/deprecated-term: has no replacement
  outputs: []
  cannot: [me/old-text]
#          ^^^^^^^^^^^ warning card/deprecated-term
`,
  },
  {
    name: 'unknown-phase, namespaced-phase and duplicate-phase in a list; order kept',
    source: `
//- cards/x@1.0.0.yaml
  id: x
  version: 1.0.0
${rest}
  phase: [testing, '', me/review, review, testing, 5]
#                  ^^ error card/unknown-phase: \`phase[1]\` is blank
#                      ^^^^^^^^^ error card/namespaced-phase
#                                 ^^^^^^ error card/unknown-phase: use one of
#                                         ^^^^^^^ warning card/duplicate-phase
#                                                  ^ error card/bad-type: a phase must be a string
`,
  },
  {
    name: 'phase as a scalar, as an empty list, and of the wrong type',
    source: `
//- cards/a@1.0.0.yaml
  id: a
  version: 1.0.0
${rest}
  phase: deployment
//- cards/b@1.0.0.yaml
  id: b
  version: 1.0.0
${rest}
  phase: []
//- cards/c@1.0.0.yaml
  id: c
  version: 1.0.0
${rest}
  phase: me/ops
#        ^^^^^^ error card/namespaced-phase
//- cards/d@1.0.0.yaml
  id: d
  version: 1.0.0
${rest}
  phase: {a: 1}
#        ^^^^^^ error card/bad-type: a phase or a list of phases
`,
  },
  {
    name: 'retired-field: a warning on each retired key',
    source: `
//- cards/x@1.0.0.yaml
  id: x
  version: 1.0.0
${rest}
  requires_human: true
# ^^^^^^^^^^^^^^ warning card/retired-field: follows from its \`type\`
  ontologyVersion: 0.1.0
# ^^^^^^^^^^^^^^^ warning card/retired-field
`,
  },
  {
    name: 'spec-too-thin: 39 characters after trimming warn, 40 do not',
    source: `
//- cards/a@1.0.0.yaml
  id: a
  version: 1.0.0
  name: X
  type: agent
  action: Act.
  spec: "   ${'s'.repeat(39)}   "
#       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning card/spec-too-thin: 39 characters
  inputs: []
  outputs: []
//- cards/b@1.0.0.yaml
  id: b
  version: 1.0.0
  name: X
  type: agent
  action: Act.
  spec: "   ${'s'.repeat(40)}   "
  inputs: []
  outputs: []
`,
  },
  {
    name: 'prohibition-misfiled: a will_not entry that is a data type; sentences are fine',
    source: `
//- cards/x@1.0.0.yaml
  id: x
  version: 1.0.0
${rest}
  will_not:
    - share the criteria
    - acceptance-criteria
#     ^^^^^^^^^^^^^^^^^^^ warning card/prohibition-misfiled: move it to \`cannot\`
`,
  },
  {
    name: 'shell-tool: no params at all is a warning on the type; a blank command on the value',
    source: `
//- cards/a@1.0.0.yaml
  id: a
  version: 1.0.0
  name: X
  type: shell-tool
#       ^^^^^^^^^^ warning card/missing-field: \`params.tool_command\`
  action: Act.
  spec: ${spec}
  inputs: []
  outputs: []
//- cards/b@1.0.0.yaml
  id: b
  version: 1.0.0
  name: X
  type: shell-tool
  action: Act.
  spec: ${spec}
  inputs: []
  outputs: []
  params:
    tool_command: "  "
#                 ^^^^ warning card/bad-type: is blank
//- cards/c@1.0.0.yaml
  id: c
  version: 1.0.0
  name: X
  type: shell-tool
  action: Act.
  spec: ${spec}
  inputs: []
  outputs: []
  params:
# ^^^^^^ warning card/missing-field: \`params.tool_command\` is missing
    other: 1
//- cards/d@1.0.0.yaml
  id: d
  version: 1.0.0
  name: X
  type: shell-tool
  action: Act.
  spec: ${spec}
  inputs: []
  outputs: []
  params:
    tool_command: [make, test]
#                 ^^^^^^^^^^^^ warning card/bad-type: as a string
//- cards/e@1.0.0.yaml
  id: e
  version: 1.0.0
  name: X
  type: shell-tool
  action: Act.
  spec: ${spec}
  inputs: []
  outputs: []
  params:
    tool_command: make test
`,
  },
  {
    name: 'shell-tool: a local type under shell-tool needs the command too; other types do not',
    vocabulary: localVocabulary,
    source: `
//- cards/a@1.0.0.yaml
  id: a
  version: 1.0.0
  name: X
  type: me/runner
#       ^^^^^^^^^ warning card/missing-field
  action: Act.
  spec: ${spec}
  inputs: []
  outputs: []
//- cards/b@1.0.0.yaml
  id: b
  version: 1.0.0
  name: X
  type: tool
  action: Act.
  spec: ${spec}
  inputs: []
  outputs: []
`,
  },
  {
    name: 'filename-mismatch: a file not named after its card, on the id value; JSON keeps its extension',
    source: `
//- cards/writer.yaml
  id: outline-writer
#     ^^^^^^^^^^^^^^ info card/filename-mismatch: rename it to cards/outline-writer@1.0.0.yaml
  version: 1.0.0
${rest}
//- cards/outline-writer@1.0.1.json
{"id": "outline-writer", "version": "1.0.0", "name": "n", "type": "agent", "action": "a", "spec": "${spec}", "inputs": [], "outputs": []}
//     ^^^^^^^^^^^^^^^^ info card/filename-mismatch: cards/outline-writer@1.0.0.json
`,
  },
  {
    name: 'aliases: an aliased value is checked where the alias is written',
    source: `
//- cards/x@1.0.0.yaml
  id: x
  version: 1.0.0
${rest}
  mcp: &n [not, a, string]
  author: *n
#         ^^ error card/bad-type: \`author\` is a list
  skill: &t web-serch
  tools: [*t]
#         ^^ error card/unknown-term: \`web-search\`
`,
  },
];

describe('card reader', () => {
  for (const c of cases) it(c.name, () => check(c.source, c.vocabulary));

  it('an empty or blank file is a parse error at offset 0 and yields no card', () => {
    for (const text of ['', '  \n\t\n']) {
      const result = readCard({ path: 'cards/x@1.0.0.yaml', text }, coreVocabulary);
      assert.equal(result.card, undefined);
      assert.deepEqual(
        result.diagnostics.map((d) => [d.severity, d.code, d.location.span]),
        [['error', 'card/parse-error', { start: 0, end: 0 }]],
      );
    }
  });

  it('a file holding only comments is a bad-type error on the comment', () => {
    const text = '# nothing here\n';
    const result = readCard({ path: 'cards/x@1.0.0.yaml', text }, coreVocabulary);
    assert.deepEqual(
      result.diagnostics.map((d) => [d.severity, d.code, text.slice(d.location.span?.start, d.location.span?.end)]),
      [['error', 'card/bad-type', '# nothing here']],
    );
  });
});

describe('card reader: lone CR line endings', () => {
  // (an unknown term and a misspelt phase: findings whose ranges the two must share)
  const lf = `id: outline-writer
name: Outline writer
type: agent
phase: [testng]
action: Write.
spec: >-
  ${spec}
tools:
  - web-serch
inputs: []
outputs:
  - name: outline
    type: markdown
version: 1.0.0
`;
  const json = `{
  "id": "outline-writer",
  "name": "Outline writer",
  "type": "agent",
  "phase": ["testng"],
  "action": "Write.",
  "spec": "${spec}",
  "tools": ["web-serch"],
  "inputs": [],
  "outputs": [{ "name": "outline", "type": "markdown" }],
  "version": "1.0.0"
}
`;
  /** The findings with their ranges as line and column, and the card's model once they are fixed. */
  const read = (path: string, text: string) => {
    const index = lineIndex(text);
    const result = readCard({ path, text }, coreVocabulary);
    const fixed = readCard({ path, text: text.replace('testng', 'testing').replace('web-serch', 'web-search') }, coreVocabulary);
    return {
      findings: result.diagnostics.map((d) => ({ code: d.code, message: d.message, path: d.location.path, start: index.positionAt(d.location.span!.start), end: index.positionAt(d.location.span!.end) })),
      card: fixed.card,
      fixedFindings: fixed.diagnostics,
    };
  };

  for (const [format, path, text] of [['YAML', 'cards/outline-writer@1.0.0.yaml', lf], ['JSON', 'cards/outline-writer@1.0.0.json', json]] as const) {
    it(`a ${format} card with CR line endings reads the same fields and ranges as its LF twin`, () => {
      const twin = read(path, text);
      assert.deepEqual(twin.findings.map((f) => f.code).sort(), ['card/unknown-phase', 'card/unknown-term']);
      assert.deepEqual(twin.fixedFindings, []);
      assert.equal(twin.card?.spec, spec);
      assert.deepStrictEqual(read(path, text.replace(/\n/g, '\r')), twin);
    });
  }
});

describe('card model', () => {
  const yaml = `id: outline-writer
name: Outline writer
type: agent
phase: testing
action: Write.
spec: ${spec}
model: m
tools: [web-search]
params:
  max_iterations: 3
  nested: {a: [1, "x", null, true, 2.5]}
inputs:
  - name: plan
    type: plan
    required: false
  - name: notes
    type: text
    description: d
outputs:
  - name: outline
    type: markdown
cannot: [acceptance-criteria]
will_not: [publish]
risk_markers: [unchecked-write]
dependencies: [planner]
version: 1.0.0
author: a
provenance: p
`;
  const expected: Card = {
    id: 'outline-writer',
    name: 'Outline writer',
    type: 'agent',
    phases: ['testing'],
    action: 'Write.',
    spec,
    model: 'm',
    tools: ['web-search'],
    mcp: [],
    params: { max_iterations: 3, nested: { a: [1, 'x', null, true, 2.5] } },
    inputs: [
      { name: 'plan', type: 'plan', required: false },
      { name: 'notes', type: 'text', description: 'd' },
    ],
    outputs: [{ name: 'outline', type: 'markdown' }],
    dependencies: ['planner'],
    cannot: ['acceptance-criteria'],
    willNot: ['publish'],
    riskMarkers: ['unchecked-write'],
    version: '1.0.0',
    author: 'a',
    provenance: 'p',
  };

  it('reads the camelCase model with defaults; optional fields absent, not undefined', () => {
    const result = readCard({ path: 'cards/outline-writer@1.0.0.yaml', text: yaml }, coreVocabulary);
    assert.deepEqual(result.diagnostics, []);
    assert.deepEqual(result.card, expected);
    assert.ok(result.card && !('agent' in result.card) && !('skill' in result.card) && !('notes' in result.card));
    assert.ok(result.card && !('required' in result.card.inputs[1]));
  });

  it('reads valid JSON exactly as JSON.parse does, into the same model as YAML', () => {
    const json = JSON.stringify({
      id: 'outline-writer', name: 'Outline writer', type: 'agent', phase: ['testing'], action: 'Write.', spec, model: 'm',
      tools: ['web-search'], params: { max_iterations: 3, nested: { a: [1, 'x', null, true, 2.5] } },
      inputs: [{ name: 'plan', type: 'plan', required: false }, { name: 'notes', type: 'text', description: 'd' }],
      outputs: [{ name: 'outline', type: 'markdown' }], cannot: ['acceptance-criteria'], will_not: ['publish'],
      risk_markers: ['unchecked-write'], dependencies: ['planner'], version: '1.0.0', author: 'a', provenance: 'p',
    }, null, 2);
    const result = readCard({ path: 'cards/outline-writer@1.0.0.json', text: json }, coreVocabulary);
    assert.deepEqual(result.diagnostics, []);
    assert.deepEqual(result.card, expected);
  });

  it('JSON values follow JSON.parse: escapes, lone surrogates, big and negative-zero numbers, repeated keys', () => {
    const params = '{"s": "a\\u0000\\ud800\\/\\n", "big": 12345678901234567890, "e": 1E400, "z": -0, "k": 1, "k": 2}';
    const text = `{"id": "x", "name": "n", "type": "agent", "action": "a", "spec": "${spec}", "inputs": [], "outputs": [], "version": "1.0.0", "params": {"s": "a\\u0000\\ud800\\/\\n", "big": 12345678901234567890, "z": -0, "k": 1, "k": 2}}`;
    const result = readCard({ path: 'cards/x@1.0.0.json', text }, coreVocabulary);
    const reference = (JSON.parse(params) as { s: string; big: number; z: number; k: number });
    assert.equal(result.card?.params['s'], reference.s);
    assert.equal(result.card?.params['big'], reference.big);
    assert.ok(Object.is(result.card?.params['z'], -0));
    assert.equal(result.card?.params['k'], 2);
    // 1E400 is Infinity for JSON.parse too, which params refuse
    const infinite = readCard({ path: 'cards/x@1.0.0.json', text: text.replace('"big"', '"e": 1E400, "big"') }, coreVocabulary);
    assert.deepEqual(infinite.diagnostics.map((d) => [d.code, d.location.path]), [['card/bad-type', 'params.e']]);
  });

  it('keeps __proto__ and constructor as inert own keys of params', () => {
    const text = `id: x\nname: n\ntype: agent\naction: a\nspec: ${spec}\ninputs: []\noutputs: []\nversion: 1.0.0\nparams:\n  __proto__: {polluted: true}\n  constructor: 1\n  nested: {__proto__: 2}\n`;
    for (const [path, body] of [
      ['cards/x@1.0.0.yaml', text],
      ['cards/x@1.0.0.json', '{"id": "x", "name": "n", "type": "agent", "action": "a", "spec": "' + spec + '", "inputs": [], "outputs": [], "version": "1.0.0", "params": {"__proto__": {"polluted": true}, "constructor": 1, "nested": {"__proto__": 2}}}'],
    ] as const) {
      const result = readCard({ path, text: body }, coreVocabulary);
      const params = result.card?.params;
      assert.ok(params, path);
      assert.equal(Object.getPrototypeOf(params), Object.prototype);
      assert.deepEqual(Object.keys(params), ['__proto__', 'constructor', 'nested']);
      assert.deepEqual(Object.getOwnPropertyDescriptor(params, '__proto__')?.value, { polluted: true });
      assert.equal(params['constructor'], 1);
      const nested = params['nested'] as Record<string, unknown>;
      assert.equal(Object.getOwnPropertyDescriptor(nested, '__proto__')?.value, 2);
      assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    }
  });

  it('shares an aliased params value instead of copying it', () => {
    const text = `id: x\nname: n\ntype: agent\naction: a\nspec: ${spec}\ninputs: []\noutputs: []\nversion: 1.0.0\nparams:\n  a: &v {k: [1, 2]}\n  b: *v\n`;
    const params = readCard({ path: 'cards/x@1.0.0.yaml', text }, coreVocabulary).card?.params;
    assert.deepEqual(params, { a: { k: [1, 2] }, b: { k: [1, 2] } });
    assert.equal(params?.['a'], params?.['b']);
  });

  it('keeps a draft of a broken card, even one with a syntax error', () => {
    const broken = readCard({ path: 'cards/x@1.0.0.yaml', text: 'id: x\nname: n\ntools: [web-search, 3]\ninputs:\n  - {name: a}\nversion: "1.0.0\n' }, coreVocabulary);
    assert.equal(broken.card, undefined);
    assert.ok(broken.diagnostics.every((d) => d.code === 'card/parse-error'));
    assert.equal(broken.draft.id, 'x');
    assert.equal(broken.draft.name, 'n');
    assert.deepEqual(broken.draft.tools, ['web-search']);
    assert.deepEqual(broken.draft.inputs, [{ name: 'a', type: '' }]);
  });

  it('sets cardRef on every finding once id and version are valid', () => {
    const result = readCard({ path: 'cards/x@1.0.0.yaml', text: 'id: x\nversion: 1.0.0\ncolour: red\n' }, coreVocabulary);
    assert.ok(result.diagnostics.length > 0);
    for (const d of result.diagnostics) assert.equal(d.location.cardRef, 'x@1.0.0');
    const bad = readCard({ path: 'cards/x@1.0.0.yaml', text: 'id: x\nversion: one\n' }, coreVocabulary);
    for (const d of bad.diagnostics) assert.equal(d.location.cardRef, undefined);
  });

  it('locates any path as a key or a value, falling back to the nearest ancestor, then the document', () => {
    const result = readCard({ path: 'cards/outline-writer@1.0.0.yaml', text: yaml }, coreVocabulary);
    const at = (path: string, part?: 'key' | 'value'): string => {
      const s = result.locate(path, part);
      return yaml.slice(s.start, s.end);
    };
    assert.equal(at('id', 'key'), 'id');
    assert.equal(at('id'), 'outline-writer');
    assert.equal(at('inputs[1].type', 'value'), 'text');
    assert.equal(at('inputs[1].type', 'key'), 'type');
    assert.equal(at('inputs[1]'), 'name: notes\n    type: text\n    description: d');
    assert.equal(at('params.nested.a[4]'), '2.5');
    assert.equal(at('cannot[0]'), 'acceptance-criteria');
    assert.equal(at('inputs[7].type'), 'inputs'); // nearest ancestor, as a key
    assert.equal(at('params.tool_command'), 'params');
    assert.equal(at('nothing'), yaml.trimEnd());
    assert.equal(at('inputs[x'), 'inputs');
    const dotted = readCard({ path: 'cards/x.yaml', text: 'params:\n  a.b: {c: 1}\n  a: {b: 2}\n' }, coreVocabulary);
    const s = dotted.locate('params.a.b.c');
    assert.equal('params:\n  a.b: {c: 1}\n  a: {b: 2}\n'.slice(s.start, s.end), '1');
  });

  it('expectedCardPath names the file a card should live in', () => {
    assert.equal(expectedCardPath('cards/a@1.0.0.yaml', 'a', '1.0.0'), undefined);
    assert.equal(expectedCardPath('cards/a.yml', 'a', '1.0.0'), 'cards/a@1.0.0.yml');
    assert.equal(expectedCardPath('cards/a@1.0.0.yaml', 'ns/a', '1.0.0'), 'cards/ns/a@1.0.0.yaml');
    assert.equal(expectedCardPath('cards/ns/a@1.0.0.yaml', 'ns/a', '1.0.0'), undefined);
    assert.equal(expectedCardPath('elsewhere/b.json', 'a', '2.0.0'), 'elsewhere/a@2.0.0.json');
  });

  it('suggestTerm proposes a close known term of the right kind only', () => {
    assert.equal(suggestTerm(coreVocabulary, 'web-serch', 'tool'), 'web-search');
    assert.equal(suggestTerm(coreVocabulary, 'Markdown', 'data-type'), 'markdown');
    assert.equal(suggestTerm(coreVocabulary, 'testng', 'tool'), undefined);
    assert.equal(suggestTerm(coreVocabulary, 'completely-different', 'tool'), undefined);
  });
});
