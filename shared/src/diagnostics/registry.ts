/**
 * THE diagnostics registry: every code the engine can report, DarkPrint's and ours.
 *
 * One table, many readers: the checks import codes from here, `explain`, hovers, the README
 * table and `docs/diagnostics.md` all render it. A code not in this table does not type-check.
 * `beyond: true` marks codes DarkPrint does not have (docs/compatibility.md#codes-of-our-own), so
 * users can filter them. `emitted: false` marks codes DarkPrint declares but that no check of this
 * engine reports (server-side release checks, a declared-but-unused code); they stay listed for
 * compatibility.
 */
/** How much a finding weighs: an error fails the bundle, a warning is counted, an info is told. */
export type Severity = 'error' | 'warning' | 'info';

export interface DiagnosticInfo {
  readonly severity: Severity;
  readonly title: string;
  /** One paragraph: what triggers it and how to fix it. */
  readonly docs: string;
  /** A small example that triggers it (a DOT or YAML snippet). */
  readonly example: string;
  readonly beyond: boolean;
  /** False for codes listed for compatibility that this engine never reports; the reason says why. */
  readonly emitted: true | { readonly never: string };
  /**
   * The other severities the engine reports the code at, by decision, each with its case (a
   * phrase read after "for"): the README's table, the docs and `explain` say them beside the
   * severity, and a test holds the engine to them.
   */
  readonly otherSeverities: readonly { readonly severity: Severity; readonly when: string }[];
  /**
   * How an editor may draw the finding's range besides its squiggle: faded for what takes no part
   * (`unused`), struck through for what is retired (`retired`). Absent for most codes.
   */
  readonly shownAs?: 'unused' | 'retired';
}

type Entry = Omit<DiagnosticInfo, 'beyond' | 'emitted' | 'otherSeverities'> & {
  beyond?: boolean;
  emitted?: DiagnosticInfo['emitted'];
  otherSeverities?: DiagnosticInfo['otherSeverities'];
};

function table<K extends string>(entries: Record<K, Entry>): Record<K, DiagnosticInfo> {
  const out = {} as Record<K, DiagnosticInfo>;
  for (const key of Object.keys(entries) as K[]) {
    const e = entries[key];
    out[key] = { ...e, beyond: e.beyond ?? false, emitted: e.emitted ?? true, otherSeverities: e.otherSeverities ?? [] };
  }
  return Object.freeze(out);
}

export const diagnosticsRegistry = table({
  // ---- dot/ -----------------------------------------------------------------------------
  'dot/parse-error': { severity: 'error', title: 'The topology is not valid DOT',
    docs:
      'Reported where the topology stops being readable DOT: a character the reader does not know, ' +
      'a lone `-`, a string, block comment or `<...>` literal left open, a missing `{` or `}`, a ' +
      'file that does not open with `graph` or `digraph`, a malformed attribute list, a `:` with no ' +
      'port name after it, or subgraphs nested more than 100 deep (past 20 errors, one last error ' +
      'says there are too many). Two common cases get their own message: an unquoted id with a ' +
      'hyphen (`code-builder`) and a DOT keyword (`node`, `edge`, `graph`, `subgraph`, `strict`, ' +
      '`digraph`) written where a node id belongs. DarkPrint refuses a topology with a parse error, ' +
      'so the bundle cannot be used until it is fixed. Fix the token the diagnostic points at: ' +
      'close the string or brace, or rename the id to letters, digits and underscores ' +
      '(`code_builder`; the quick fix renames every occurrence).',
    example:
      'digraph g {\n' +
      '  code-builder [card="code-builder@1.0.0"];\n' +
      '}' },
  'dot/unsupported': { severity: 'warning', title: 'DOT construct read but not supported',
    docs:
      'Reported for DOT the reader accepts but gives no meaning to: an HTML-like `<...>` value ' +
      '(kept as plain text), a port or compass suffix on an edge endpoint such as `writer:draft` ' +
      '(skipped, reported once per file), and anything after the closing brace of the first graph ' +
      '(ignored). `import` uses the same code for parts of an Attractor pipeline a bundle cannot ' +
      'hold: a `prompt` on a start or exit node, a missing or unknown `shape`, a `max_retries` that ' +
      'is not a whole number, an edge attribute that cannot be written back into the topology, and ' +
      'a card id or pin too long for a file name (a derived id keeps its first characters and a ' +
      'hash of the whole, a pinned card goes to a shorter file name; the node keeps its id). ' +
      'The construct is dropped, so say the same thing the supported way: name ports with `out=` ' +
      'and `in=` on the edge, write the value as a quoted string, and keep one graph per file.',
    example:
      'digraph g {\n' +
      '  writer:draft -> editor;\n' +
      '}' },
  'dot/not-directed': { severity: 'error', title: 'The topology is not a directed graph',
    docs:
      'Reported when the graph is declared with `graph` rather than `digraph`, or, once per file, ' +
      'at the first `--` edge. Edges in a bundle carry data one way, so an undirected topology ' +
      'stops resolution: nothing after the parser runs on it. Declare the graph with `digraph` and ' +
      'write every edge with `->` (the quick fixes do both).',
    example:
      'graph g {\n' +
      '  writer -- editor;\n' +
      '}' },
  'dot/duplicate-node': { severity: 'info', title: 'A node is declared twice with different attributes',
    docs:
      'Reported when a node statement repeats an id that is already declared and gives one of its ' +
      'attributes a different value. The later value wins, so the earlier statement no longer says ' +
      'what the node is. Repeating a node with the same values, or naming it bare in an edge, is ' +
      'silent. Merge the statements into one that holds the value you mean.',
    example:
      'digraph g {\n' +
      '  writer [card="writer@1.0.0"];\n' +
      '  writer [card="writer@2.0.0"];\n' +
      '}' },
  'dot/self-loop': { severity: 'info', title: 'An edge goes from a node to itself',
    docs:
      'Reported, once per node, for an edge from a node to itself. A self-loop is a cycle of one ' +
      'node: the node can never be an entry, and the analysis treats it like any other cycle, so it ' +
      'carries `unbounded-loop` unless its card declares an iteration cap. Keep the edge if the ' +
      'node is meant to repeat its own work, with a cap such as `params.max_iterations`; otherwise ' +
      'remove it.',
    example:
      'digraph g {\n' +
      '  fixer -> fixer;\n' +
      '}' },
  // ---- card/ ----------------------------------------------------------------------------
  'card/parse-error': { severity: 'error', title: 'The card (or vocabulary file) is not valid YAML or JSON',
    otherSeverities: [{ severity: 'warning', when: 'what the YAML reader only warns about, such as an unknown tag (the value is read as plain text)' }],
    docs:
      'Reported when a card file cannot be read at all: the document is empty or only whitespace, ' +
      'or the text has a YAML or JSON syntax error (a name ending in `.json` is read as JSON, ' +
      'anything else as YAML). What the YAML reader only warns about, such as an unknown tag, is ' +
      'reported with this code as a warning. As an error the code also covers an ' +
      '`ontology/extensions.yaml` that cannot be read or does not have the expected shape, and a ' +
      'folder holding two different vocabulary files (`ontology/extensions.yaml` and ' +
      '`extensions.yaml`). A card that does not parse does not load, so the nodes pinning it also ' +
      'report `bundle/missing-card`. Fix the syntax at the position shown.',
    example:
      'id: writer\n' +
      'name: Writer\n' +
      'inputs: [brief' },
  'card/missing-field': { severity: 'error', title: 'A required card field is missing or blank',
    otherSeverities: [{ severity: 'warning', when: 'a `shell-tool` with no `params.tool_command`' }],
    docs:
      'Reported when a required card field is absent, `null` or a blank string: `id`, `name`, ' +
      '`type`, `action`, `spec`, `version`, the `inputs` and `outputs` lists (a card with no ports ' +
      'writes `inputs: []`), and the `name` and `type` of each port. As a warning it also flags a ' +
      'card typed `shell-tool` (or a type under it) with no `params.tool_command`, since the runner ' +
      'would have no command to run, and, from `import`, a pipeline node that had no `prompt` and ' +
      'so gives its card an empty spec. Add the field with a real value.',
    example:
      'id: writer\n' +
      'name: Writer\n' +
      'type: agent\n' +
      'spec: ""' },
  'card/bad-type': { severity: 'error', title: 'A card field has the wrong shape',
    otherSeverities: [
      { severity: 'warning', when: 'a `params.tool_command` that is blank or not a string' },
      { severity: 'info', when: 'an unknown key, a field written under both spellings, or `required` on an output' },
    ],
    docs:
      'Reported as an error when a card value has the wrong shape: the document is not a mapping, a ' +
      'field holds the wrong kind of value (a string where a list belongs, a list entry that is not ' +
      'a string), or a `params` value does not survive a JSON round trip (an infinite number, ' +
      'nesting deeper than 100). Softer cases use the same code at lower severity: info for a ' +
      'top-level key the card format does not know (it is ignored), for a field written under both ' +
      'its name and its alias (`will_not` and `willNot`: `will_not` wins) and for `required` on an ' +
      'output (it only means something on inputs); a warning for a `shell-tool` whose ' +
      '`params.tool_command` is blank or not a string. Write the value in the shape the field ' +
      'takes, or remove the key.',
    example:
      'type: agent\n' +
      'tools: shell' },
  'card/bad-id': { severity: 'error', title: 'The card id is not a valid card id',
    docs:
      'Reported when `id` does not follow the card id grammar: lowercase letters and digits in ' +
      'words joined by single hyphens, optionally after one namespace and a slash (`writer`, ' +
      '`me/code-review`). Capitals, underscores, dots, spaces, a leading or trailing hyphen and a ' +
      'second slash are refused. Card ids and DOT node ids have different grammars, which is why a ' +
      'node `code_review` pins its card explicitly with `card="code-review@1.0.0"`. Rename the id, ' +
      'then the file and every pin that names it.',
    example:
      'id: Code_Review\n' +
      'version: 1.0.0' },
  'card/bad-version': { severity: 'error', title: 'The card version is not strict semver',
    docs:
      'Reported when `version` is not strict semantic versioning: `MAJOR.MINOR.PATCH` with no ' +
      'leading zeros and no `v` in front, optionally followed by `-prerelease` and `+build`. `1.0`, ' +
      '`v1.0.0` and `01.2.3` are refused. The version is half of the card\'s identity (`id@version`) ' +
      'and part of its digest. Write a full version such as `1.0.0`, quoted if your YAML would ' +
      'otherwise read it as a number.',
    example:
      'id: writer\n' +
      'version: v1.0.0' },
  'card/duplicate-port': { severity: 'error', title: 'Two ports on one side share a name',
    docs:
      'Reported when two inputs, or two outputs, of one card share a `name`. Edges pick ports by ' +
      'name with `out=` and `in=`, so a name must be unique on its side (an input and an output may ' +
      'still share one). Rename one of the ports, and any edge that pins it.',
    example:
      'inputs:\n' +
      '  - { name: brief, type: text }\n' +
      '  - { name: brief, type: plan }' },
  'card/unknown-term': { severity: 'error', title: 'A term is not in the vocabulary',
    otherSeverities: [{ severity: 'warning', when: 'a sentence in `cannot` (it belongs in `will_not`; the card still loads)' }],
    docs:
      'Reported when a field that takes a vocabulary term names one the vocabulary does not have, ' +
      'even after following deprecation redirects: `type`, each entry of `tools`, `cannot` and ' +
      '`risk_markers`, and the `type` of each port. The core terms are listed in ' +
      '`docs/vocabulary.md`; a namespaced term (`me/scraper`) must be declared in the bundle\'s ' +
      '`ontology/extensions.yaml`. Fix the spelling, use a core term of the kind the field takes, ' +
      'or declare the local term.',
    example:
      'type: agent\n' +
      'tools: [web-serach]' },
  'card/deprecated-term': { severity: 'warning', shownAs: 'retired', title: 'A term is deprecated',
    docs:
      'Reported when a field names a term the vocabulary marks as deprecated, or one that only ' +
      'resolves by following a deprecated term to its replacement. The card still loads and the ' +
      'replacement is what counts; the hint names it. No term of the current core vocabulary is ' +
      'deprecated and `ontology/extensions.yaml` cannot mark one, so this appears only once a ' +
      'vocabulary retires a term. Write the replacement term instead.',
    example:
      '# suppose the vocabulary retires `old-tool` in favour of `new-tool`\n' +
      'tools: [old-tool]' },
  'card/wrong-term-kind': { severity: 'error', title: 'A term of another kind is used',
    docs:
      'Reported when a field names a known term of another kind: `type` takes a node type, `tools` ' +
      'takes tools, `cannot` and port types take data types, `risk_markers` takes risk markers. So ' +
      'a data type in `tools` or a tool in `type` is refused. `tool` is both a node type and the ' +
      'name of the tool kind: `type: tool` is correct, `tools: [tool]` is not. Replace the term ' +
      'with one of the kind the field takes.',
    example:
      'type: agent\n' +
      'tools: [code]' },
  'card/version-bump-too-small': { severity: 'error', title: 'A new card version bumps less than its changes require',
    docs:
      'Reported when a bundle holds two versions of one card id and the newer version (taking ' +
      'consecutive versions in semver order) bumps less than the differences between them require. ' +
      'Breaking changes need a major bump: a changed `id` or `type`, a port removed or retyped, a ' +
      'new required input or an input made required, an entry added to `cannot`, an entry withdrawn ' +
      'from `will_not`. Additions and behaviour changes need a minor bump: a new optional input, ' +
      'output, tool, `mcp` entry, risk marker, dependency or `params` key, a phase added or ' +
      'removed, a `cannot` entry withdrawn, a `will_not` entry added, a changed `spec`, `model` or ' +
      '`skill`. Any other content change is a patch. Raise the newer version to at least the one ' +
      'the hint suggests.',
    example:
      '# cards/writer@1.0.0.yaml has cannot: []\n' +
      'id: writer\n' +
      'version: 1.0.1\n' +
      'cannot: [acceptance-criteria]' },
  'card/unknown-phase': { severity: 'error', title: 'A phase is not one of the five',
    docs:
      'Reported when a `phase` entry is blank or is not one of the five phases: `planning`, ' +
      '`implementation`, `testing`, `debugging`, `deployment`. The five are closed. Listing no ' +
      'phase, or leaving the field out, is a complete answer and reports nothing. Use one of the ' +
      'five or drop the entry.',
    example: 'phase: [planing]' },
  'card/namespaced-phase': { severity: 'error', title: 'A phase is namespaced',
    docs:
      'Reported when a `phase` entry contains a `/`, as a namespaced local term would (checked ' +
      'before the entry is looked up). Phases are the one kind of term no bundle may extend. Use ' +
      'one of the five core phases, or leave the node without a phase.',
    example: 'phase: [me/triage]' },
  'card/duplicate-phase': { severity: 'warning', title: 'A phase is listed twice',
    docs:
      'Reported when `phase` lists the same phase more than once. The repeat is dropped, so nothing ' +
      'else changes. Remove the repeated entry.',
    example: 'phase: [testing, testing]' },
  'card/retired-field': { severity: 'warning', shownAs: 'retired', title: 'A retired card field is present',
    docs:
      'Reported for keys an earlier card format had and this one ignores: `requires_human` / ' +
      '`requiresHuman` (whether a person acts at a node now follows from its `type` alone, ' +
      '`human-gate` or `human-input`) and `ontology_version` / `ontologyVersion` (there is one ' +
      'vocabulary and it has no version). The value has no effect. Delete the key; if a person does ' +
      'act at the node, give it a human node type.',
    example:
      'type: agent\n' +
      'requires_human: true' },
  'card/spec-too-thin': { severity: 'warning', title: 'The spec is shorter than 40 characters',
    docs:
      'Reported when `spec`, with leading and trailing whitespace trimmed, is shorter than 40 ' +
      'characters (characters, not words). The spec is the prompt the node\'s agent is handed at run ' +
      'time, so a one-liner leaves it guessing. Say what the node does, what it reads and what it ' +
      'must produce.',
    example: 'spec: Write the code.' },
  'card/prohibition-misfiled': { severity: 'warning', title: 'A data type is listed in will_not instead of cannot',
    docs:
      'Reported when a `will_not` entry is the id of a data-type term such as ' +
      '`acceptance-criteria`. `will_not` holds promises in prose that nothing checks, while ' +
      '`cannot` holds the data types the resolver enforces on every incoming edge, so a data type ' +
      'in `will_not` reads like a rule and is never checked. Move the entry to `cannot` (the quick ' +
      'fix does).',
    example: 'will_not: [acceptance-criteria]' },
  'card/filename-mismatch': { severity: 'info', title: 'The card file is not named after its id and version',
    docs:
      'Reported when a card file is not named after the card it holds: `<id>@<version>` plus its ' +
      'extension, with a namespaced id under a folder of its namespace ' +
      '(`cards/me/review@1.0.0.yaml`). A card\'s identity comes from its own `id` and `version` ' +
      'fields, never from its file name, so nothing breaks; the convention helps whoever opens the ' +
      'folder find a card. Rename the file (the quick fix does).',
    example:
      '# cards/writer.yaml\n' +
      'id: writer\n' +
      'version: 1.0.0', beyond: true },
  // ---- bundle/ --------------------------------------------------------------------------
  'bundle/missing-card': { severity: 'error', title: 'A node points at a card the bundle does not hold',
    docs:
      'Reported on a node whose card cannot be found: it pins `card="id@version"` (or `version=`) ' +
      'and no card in the bundle has that id and version; it has no pointer at all and no card has ' +
      'its id; or it uses `version=` while its node id is not a valid card id. Often the card ' +
      'exists under another version, failed to load, or sits in a file whose name the loader ' +
      'reserves (`blueprint.yaml`, `extensions.yaml`). Pin an `id@version` the bundle holds, or add ' +
      'the card.',
    example:
      '// the bundle holds writer@1.0.0 only\n' +
      'digraph g {\n' +
      '  writer [card="writer@2.0.0"];\n' +
      '}' },
  'bundle/orphan-card': { severity: 'warning', shownAs: 'unused', title: 'A card is pinned by no node',
    docs:
      'Reported on a card that no node of the topology pins. It is still loaded and checked, but it ' +
      'takes no part in the graph or the analysis and is left out of the blueprint digest. Pin it ' +
      'from a node, or delete the file.',
    example:
      '// cards/ holds writer@1.0.0 and editor@1.0.0\n' +
      'digraph g {\n' +
      '  writer [card="writer@1.0.0"];\n' +
      '}' },
  'bundle/unpinned-card': { severity: 'error', title: 'A node does not pin an exact card version',
    docs:
      'Reported on a node whose card pointer does not name one exact version: `card=` is not ' +
      '`id@version` (`card="writer"`, `card="writer@latest"`), the version is a range or a tag ' +
      '(`1.x`, `^1.0.0`, `~1.2`, `*`) in `card=` or `version=`, or the node has no pointer while ' +
      'the bundle holds a card with the node\'s id. A bundle pins exact versions so its digest means ' +
      'one thing. Write `card="id@version"` with a version the bundle holds (the hint lists them; ' +
      'the quick fix pins one).',
    example:
      'digraph g {\n' +
      '  writer [card="writer@latest"];\n' +
      '}' },
  'bundle/digest-mismatch': { severity: 'error', title: 'Card digests disagree',
    docs:
      'Reported when two card files claim the same `id@version` but differ in content, so their ' +
      'digests disagree (identical copies are merged silently), or when a node\'s `digest=` pin, ' +
      'with or without its `sha256:` prefix, is not the start of the digest of the card it points ' +
      'at. A published version is never edited in place. Give the changed card a new version, ' +
      'delete the stale copy, or update the `digest=` pin.',
    example:
      'digraph g {\n' +
      '  writer [card="writer@1.0.0", digest="sha256:0000"];\n' +
      '}' },
  'bundle/port-mismatch': { severity: 'error', title: 'An edge names a port the card lacks, or a side carries no data',
    docs:
      'Reported on an edge whose `out=` names no output of the source card or whose `in=` names no ' +
      'input of the target card (then nothing else is checked on that edge), or that joins a source ' +
      'with no outputs or a target with no inputs, so it carries no data. Checked only when both ' +
      'ends have cards. Use a port name the card declares (the quick fix offers them), add the port ' +
      'to the card, or remove the edge.',
    example:
      '// writer@1.0.0 outputs `draft`\n' +
      'digraph g {\n' +
      '  writer [card="writer@1.0.0"]; editor [card="editor@1.0.0"];\n' +
      '  writer -> editor [out="text"];\n' +
      '}' },
  'bundle/port-ambiguous': { severity: 'warning', title: 'More than one port pair fits an edge',
    docs:
      'Reported on an edge that pins no ports when more than one (output, input) pair of the two ' +
      'cards fits. The first fitting pair, in declaration order (outputs first, then inputs), is ' +
      'the one assumed. Pin the pair you mean with `out=` and `in=`.',
    example:
      '// writer outputs draft: text, notes: text; editor inputs draft: text\n' +
      'digraph g {\n' +
      '  writer [card="writer@1.0.0"]; editor [card="editor@1.0.0"];\n' +
      '  writer -> editor;\n' +
      '}' },
  'bundle/type-mismatch': { severity: 'error', title: 'No output of the source fits an input of the target',
    docs:
      'Reported on an edge when no output of the source fits any input of the target, or when the ' +
      'pinned pair does not fit. An output fits an input when the two types are equal, when either ' +
      'is `any`, or when the output type is narrower than the input type (`code` into `text`), ' +
      'never the reverse. Change a port type, pin another pair of ports, or put a node between them ' +
      'that turns one type into the other.',
    example:
      '// writer outputs draft: text; tester inputs source: code\n' +
      'digraph g {\n' +
      '  writer [card="writer@1.0.0"]; tester [card="tester@1.0.0"];\n' +
      '  writer -> tester;\n' +
      '}' },
  'bundle/undeclared-dependency': { severity: 'warning', title: 'A supplier is not listed in the card\'s dependencies',
    docs:
      'Reported on an edge into a node whose card does not list the supplier in `dependencies`, by ' +
      'card id or by node id. Dependencies are always checked and a card with no `dependencies` ' +
      'lists none, so such a card warns once for every predecessor that has a card. Add the ' +
      'supplier\'s card id to `dependencies` in the target card (the quick fix does).',
    example:
      '// editor@1.0.0 declares no dependencies\n' +
      'digraph g {\n' +
      '  writer [card="writer@1.0.0"]; editor [card="editor@1.0.0"];\n' +
      '  writer -> editor;\n' +
      '}' },
  'bundle/missing-dependency': { severity: 'error', title: 'A declared dependency has no edge into the node',
    docs:
      'Reported on a `dependencies` entry of a card when no edge brings data into the node that ' +
      'pins it from a node with that card id or node id. It is reported in the card file, once for ' +
      'every node pinning the card. Add the edge to the topology, or remove the entry (the quick ' +
      'fix does).',
    example:
      '# cards/editor@1.0.0.yaml, pinned by a node with no edge from writer\n' +
      'id: editor\n' +
      'dependencies: [writer]' },
  'bundle/no-entry': { severity: 'warning', title: 'The graph has no entry node',
    docs:
      'Reported when the graph has nodes but every one of them has an incoming edge, so there is no ' +
      'place for a run to start: everything sits on a cycle or downstream of one. (With no entry, ' +
      '`bundle/unreachable-node` is not reported.) Add a first node that feeds the cycle, or remove ' +
      'the edge that closes it.',
    example:
      'digraph g {\n' +
      '  writer -> editor;\n' +
      '  editor -> writer;\n' +
      '}' },
  'bundle/no-exit': { severity: 'warning', title: 'The graph has no exit node',
    docs:
      'Reported when the graph has nodes but every one of them has an outgoing edge, so no node ' +
      'ends the run. Add a final node after the loop, or remove the edge that sends the last node ' +
      'back.',
    example:
      'digraph g {\n' +
      '  intake -> writer;\n' +
      '  writer -> editor;\n' +
      '  editor -> writer;\n' +
      '}' },
  'bundle/unreachable-node': { severity: 'warning', shownAs: 'unused', title: 'A node cannot be reached from any entry',
    docs:
      'Reported on a node that no path from an entry (a node with no incoming edge) reaches, ' +
      'typically a node of a cycle that nothing outside feeds. Not reported when the graph has no ' +
      'entry at all; that is `bundle/no-entry`. Add an edge that leads to the node, or remove it.',
    example:
      'digraph g {\n' +
      '  intake -> writer;\n' +
      '  tester -> fixer;\n' +
      '  fixer -> tester;\n' +
      '}' },
  'bundle/ontology-mismatch': { severity: 'warning', title: 'A local term reuses a core term id',
    docs:
      'Reported when a term in `ontology/extensions.yaml` uses the id of a core term. The local ' +
      'definition replaces the core one for the whole bundle, so every card that names the id means ' +
      'something else by it. Give the local term a namespaced id (`me/review`) and point its ' +
      '`broader` at the core term instead.',
    example:
      'terms:\n' +
      '  - { id: validation, kind: node-type, label: Review, description: Our review step., since: "0.1.0" }' },
  'bundle/prohibition-violated': { severity: 'error', title: 'An edge carries a data type the target card cannot receive',
    docs:
      'Reported on an edge into a node whose card lists data types in `cannot`, when the edge can ' +
      'carry one of them: an output of the source card has that type or a narrower one. The outputs ' +
      'that count are the `out=` port when the edge pins one, and otherwise every output of the ' +
      'source card, not just the pair the edge is wired through; an output typed `any` does not ' +
      'break a narrower prohibition. Related information points at the `cannot` entry and the ' +
      'carrying port. This is the check the bundle format exists for: the node must never receive ' +
      'that data. Remove the edge, or take the type out of `cannot` if the node may receive it ' +
      'after all (moving it to `will_not` keeps the words and drops the check).',
    example:
      '// planner outputs criteria: acceptance-criteria; builder has cannot: [acceptance-criteria]\n' +
      'digraph g {\n' +
      '  planner [card="planner@1.0.0"]; builder [card="builder@1.0.0"];\n' +
      '  planner -> builder;\n' +
      '}' },
  'bundle/version-bump-too-small': {
    severity: 'error', title: 'A blueprint release bumps less than its changes require',
    docs:
      'Listed for compatibility; this engine never reports it. In DarkPrint it is a release check ' +
      'of the registry service: when a new version of a blueprint is published, the declared ' +
      'version must bump at least as far as the changes to the topology and to the set of pinned ' +
      'cards require. That needs the previously published release, which a bundle folder does not ' +
      'hold. Inside a bundle, two versions of one card are compared by ' +
      '`card/version-bump-too-small`.',
    example:
      '// published as 1.2.0 with builder@1.0.0; release 1.2.1 declared with:\n' +
      'digraph g {\n' +
      '  builder [card="builder@2.0.0"];\n' +
      '}',
    emitted: { never: 'a release check of DarkPrint\'s registry service, which compares against the published version' },
  },
  'bundle/legacy-topology-file': { severity: 'warning', title: 'A legacy blueprint.dot sits beside topology.dot',
    docs:
      'Reported on a `blueprint.dot` that sits beside a `topology.dot`. `blueprint.dot` is the ' +
      'topology\'s former file name; when both exist `topology.dot` is read and the other is ' +
      'ignored. A `blueprint.dot` on its own is still read as the topology, with no warning. Delete ' +
      '`blueprint.dot`, or move what it still holds into `topology.dot`.',
    example:
      '// blueprint.dot, in a folder that also holds topology.dot\n' +
      'digraph old {\n' +
      '  writer -> editor;\n' +
      '}' },
  'bundle/misfiled-card': { severity: 'warning', title: 'A card is saved under a reserved file name',
    docs:
      'Reported on a file under `cards/` named `blueprint.yaml` or `extensions.yaml` (or `.yml`, ' +
      '`.json`) that holds card fields. Files are classified by name, so it is read as the manifest ' +
      'or the vocabulary and drops out of the card set, which is why the nodes that pin it report ' +
      '`bundle/missing-card`. Rename it after the card it holds, `<id>@<version>.yaml` (the quick ' +
      'fix does).',
    example:
      '# cards/blueprint.yaml\n' +
      'id: writer\n' +
      'version: 1.0.0', beyond: true },
  'bundle/files-skipped': { severity: 'warning', title: 'Some files of the bundle were not read',
    docs:
      'Reported on the bundle (at its topology) when files it would read were left out to keep a ' +
      'repository from making the tools read without end or outside itself: a symbolic link whose ' +
      'target lies outside the workspace folder (in the editor) or outside the bundle folder (on ' +
      'the command line) is never followed, a file larger than 16 MB is not read, and a bundle reads ' +
      'at most 10,000 files and 64 MB in all (the editor also walks at most 10,000 folders below ' +
      '`cards/`). The message names what was skipped. The bundle is ' +
      'checked as if those files were absent, so nodes pinning a skipped card report ' +
      '`bundle/missing-card`. Copy the cards into the bundle instead of linking to them, or remove ' +
      'the files that do not belong in `cards/`.',
    example:
      '# cards is a link to a folder outside the workspace\n' +
      'cards -> /etc', beyond: true },
  // ---- attractor/ -----------------------------------------------------------------------
  'attractor/strict-graph': { severity: 'warning', title: 'The graph is declared strict',
    docs:
      'Reported when the graph is declared `strict digraph`. Attractor\'s DOT subset has no `strict` ' +
      'and rejects the file, and in a strict graph DarkPrint merges parallel edges between the same ' +
      'two nodes. Remove `strict` (the quick fix does).',
    example:
      'strict digraph g {\n' +
      '  writer -> editor;\n' +
      '}' },
  'attractor/undirected-graph': {
    severity: 'warning', title: 'The graph is undirected',
    docs:
      'Listed for compatibility; this engine never reports it. DarkPrint\'s Attractor lint has it ' +
      'for a graph declared with `graph`, but an undirected graph already stops resolution with ' +
      '`dot/not-directed` before the lint runs, so it cannot be reached. Declare the graph with ' +
      '`digraph` and write edges with `->`.',
    example:
      'graph g {\n' +
      '  writer -- editor;\n' +
      '}',
    emitted: { never: 'an undirected graph stops resolution with dot/not-directed before the Attractor lint runs' },
  },
  'attractor/multiple-graphs': { severity: 'warning', title: 'The file holds more than one graph',
    docs:
      'Reported when anything follows the closing brace of the first graph in the topology file, ' +
      'usually a second graph. Only the first graph is read (the rest also reports ' +
      '`dot/unsupported`), and Attractor takes exactly one graph per file. Merge the nodes you need ' +
      'into the first graph and delete the rest, or give the second graph a bundle of its own.',
    example:
      'digraph drafting {\n' +
      '  writer -> editor;\n' +
      '}\n' +
      'digraph review {\n' +
      '  reviewer;\n' +
      '}' },
  'attractor/bad-node-id': { severity: 'warning', title: 'A node id is not an Attractor identifier',
    docs:
      'Reported on a node id Attractor cannot read as an identifier: it must match ' +
      '`[A-Za-z_][A-Za-z0-9_]*` (no hyphens, spaces, leading digits or non-ASCII letters) and must ' +
      'not be a DOT keyword (`node`, `edge`, `graph`, `digraph`, `subgraph`, `strict`, in any ' +
      'case). Such ids get past the DOT reader when quoted (`"code-review"`) or written with ' +
      'non-ASCII letters. `start`, `Start`, `exit` and `end` are valid here; see ' +
      '`attractor/boundary-node-id`. Rename the node to a plain identifier and keep the readable ' +
      'name in the card\'s `name` (the quick fix renames every occurrence).',
    example:
      'digraph g {\n' +
      '  "code-review" [card="code-review@1.0.0"];\n' +
      '}' },
  'attractor/quoted-node-id': { severity: 'warning', title: 'A node id is quoted',
    docs:
      'Reported where a node id is written as a quoted string in a node statement or an edge ' +
      'endpoint. Attractor\'s grammar takes node ids as bare identifiers only. Drop the quotes when ' +
      'the text is already an identifier; otherwise rename the node (the quick fix does either, ' +
      'everywhere the id occurs).',
    example:
      'digraph g {\n' +
      '  "writer" -> "editor";\n' +
      '}' },
  'attractor/attr-separator': { severity: 'warning', title: 'Attributes are not separated by commas',
    docs:
      'Reported inside an attribute list `[...]` where a `key=value` is followed by a `;` or ' +
      'directly by the next key instead of a comma. DOT accepts all three, but Attractor requires ' +
      'commas between attributes. Separate the attributes with `,` (the quick fix does).',
    example:
      'digraph g {\n' +
      '  writer [card="writer@1.0.0"; label="Writer"];\n' +
      '}' },
  'attractor/hash-comment': { severity: 'warning', title: 'A # comment is used',
    docs:
      'Reported for a `#` outside strings and outside `//` and `/* */` comments. DOT reads the rest ' +
      'of that line as a comment, but Attractor strips only `//` and `/* */` comments and fails on ' +
      'the `#`. Write the comment with `//` (the quick fix does).',
    example:
      'digraph g {\n' +
      '  # drafting comes first\n' +
      '  writer -> editor;\n' +
      '}' },
  'attractor/unsupported-value': { severity: 'warning', title: 'A value Attractor cannot read',
    docs:
      'Reported for a value Attractor\'s reader cannot take: a string concatenation `"a" + "b"` (at ' +
      'each `+`), a number run straight into letters that are not a duration unit (`30x`; `250ms`, ' +
      '`900s`, `15m`, `2h` and `1d` are durations and fine), or an HTML-like `<...>` literal. Write ' +
      'the value as one quoted string.',
    example:
      'digraph g {\n' +
      '  writer [label="Draft" + "er"];\n' +
      '}' },
  'attractor/reserved-attribute': { severity: 'warning', title: 'A node sets type in the topology',
    docs:
      'Reported on a node whose attributes, including any it inherits from a `node [...]` default, ' +
      'set `type`. To Attractor, a node\'s `type` picks its handler; a DarkPrint node type lives in ' +
      'the `type` field of the card, and the exporter never writes `type`. Remove it from the ' +
      'topology (the quick fix does) and set the card\'s `type` instead.',
    example:
      'digraph g {\n' +
      '  check [card="check@1.0.0", type="validation"];\n' +
      '}' },
  'attractor/condition-syntax': { severity: 'warning', title: 'An edge condition does not parse',
    docs:
      'Reported on an edge that has a `condition` attribute (even an empty one) which does not ' +
      'parse under Attractor\'s condition grammar: one or more clauses `key=literal` or ' +
      '`key!=literal` joined by `&&`, where the key is `outcome`, `preferred_label` or `context.` ' +
      'followed by a dotted path. Each problem is one warning: an empty condition, `||`, `!`, ' +
      'comparisons (`<`, `>`, `<=`, `>=`) and words such as `contains`, `==`, parentheses, a bare ' +
      'key or value, a missing key or literal, an unknown key, an unterminated string. A runner ' +
      'refuses the whole pipeline over one bad condition, while DarkPrint never evaluates ' +
      'conditions at all. Rewrite it as clauses joined by `&&`, such as `outcome!=success`.',
    example:
      'digraph g {\n' +
      '  tester -> fixer [condition="outcome == fail"];\n' +
      '}' },
  'attractor/boundary-node-id': { severity: 'warning', title: 'A node id collides with an Attractor boundary name',
    docs:
      'Reported on a node whose id is `start`, `Start`, `exit` or `end`. Attractor reads those ' +
      'names as a pipeline\'s entry and exit, and the exporter adds boundary nodes of its own, so it ' +
      'renames yours (`start` becomes `n_start`, with `dp_node` recording the original) and the ' +
      'compiled file no longer uses the id your topology does. Rename the node, for example to ' +
      '`start_step` (the quick fix renames every occurrence).',
    example:
      'digraph g {\n' +
      '  start [card="intake@1.0.0"];\n' +
      '  start -> writer;\n' +
      '}', beyond: true },
  'attractor/unguarded-fork': { severity: 'warning', title: 'A fork has an arm with neither condition nor weight',
    docs:
      'Reported on a node with two or more outgoing edges when at least one of them carries neither ' +
      'a `condition` nor a `weight`. A runner follows exactly one arm, and when nothing else ' +
      'decides it takes the target whose id sorts first: an accident of naming picks the branch. ' +
      'Guard every arm with a `condition` (a verdict and its negation, ' +
      '`outcome=success` and `outcome!=success`, cover every case), or give the arm to prefer a ' +
      '`weight`.',
    example:
      'digraph g {\n' +
      '  tester -> shipper;\n' +
      '  tester -> fixer;\n' +
      '}', beyond: true },
  'attractor/ignored-attribute': { severity: 'info', title: 'A topology node sets an Attractor attribute the exporter never writes',
    docs:
      'Reported on a topology node that sets one of the attributes Attractor reads on nodes, such ' +
      'as `prompt`, `timeout`, `llm_model` or `goal_gate`, which the exporter never copies from the ' +
      'topology: compiled nodes are built from their cards, so the setting has no effect. (`type` ' +
      'is reported as `attractor/reserved-attribute` instead.) Move what it says to the card ' +
      '(`spec`, `model`, `params.max_iterations`), or add it by hand to the compiled file.',
    example:
      'digraph g {\n' +
      '  writer [card="writer@1.0.0", timeout="900s"];\n' +
      '}', beyond: true },
  // ---- ontology/ ------------------------------------------------------------------------
  'ontology/unknown-term': {
    severity: 'error', title: 'A term is not in the vocabulary (vocabulary level)',
    docs:
      'Listed for compatibility; this engine never reports it. DarkPrint declares it for a term ' +
      'missing from the vocabulary but reports such terms where cards use them, as ' +
      '`card/unknown-term`, and never emits this code. A `broader` pointer in ' +
      '`ontology/extensions.yaml` that names no term is `ontology/dangling-pointer`.',
    example:
      '# reported as card/unknown-term on the card\n' +
      'tools: [me/scraper]',
    emitted: { never: 'DarkPrint declares this code but reports unknown terms on cards as card/unknown-term' },
  },
  'ontology/cyclic-broader': { severity: 'error', title: 'broader pointers form a cycle',
    docs:
      'Reported when following `broader` from term to term comes back to a term already visited, ' +
      'once per cycle (the message lists the cycle). A cycle never reaches a core term, so the ' +
      'local terms on it are also reported as unrooted. Point one of the terms at a core term ' +
      'outside the cycle.',
    example:
      'terms:\n' +
      '  - { id: me/a, kind: tool, label: A, description: First., since: "0.1.0", broader: me/b }\n' +
      '  - { id: me/b, kind: tool, label: B, description: Second., since: "0.1.0", broader: me/a }' },
  'ontology/dangling-pointer': { severity: 'error', title: 'A broader or replacedBy pointer names no term',
    docs:
      'Reported when a term\'s `broader`, or the replacement its deprecation names, is an id the ' +
      'vocabulary does not have, core or local. It is usually a typo. Fix the id, or declare the ' +
      'missing term.',
    example:
      'terms:\n' +
      '  - { id: me/scraper, kind: tool, label: Scraper, description: Reads web pages., since: "0.1.0", broader: web-serch }' },
  'ontology/phase-not-extensible': { severity: 'error', title: 'A local term tries to add a phase',
    docs:
      'Reported on a local term of kind `phase`. The five phases are closed and a bundle cannot add ' +
      'one, so the term is not checked any further. Remove it, and give cards one of the five ' +
      'phases or none.',
    example:
      'terms:\n' +
      '  - { id: me/triage, kind: phase, label: Triage, description: Sorting the inbox., since: "0.1.0" }' },
  'ontology/local-term-unrooted': { severity: 'error', title: 'A local term does not reach a core term',
    docs:
      'Reported on a local term whose `broader` chain never reaches a core term: it has no ' +
      '`broader`, it points at a local term that is itself unrooted, or the chain dangles or loops. ' +
      'Cards can still name the term, but no analysis can relate it to a core category (it is not a ' +
      'judge, not an external tool, not a person), so it silently counts as nothing. Set `broader` ' +
      'to the core term it narrows.',
    example:
      'terms:\n' +
      '  - { id: me/scraper, kind: tool, label: Scraper, description: Reads web pages., since: "0.1.0" }' },
  'ontology/local-marker-unweighted': { severity: 'warning', title: 'A local risk marker has no weight',
    docs:
      'Reported on a local risk marker that has no `defaultWeight` (and no weight configured for ' +
      'it). It weighs 0: cards may declare it, but it never lowers the security score. Give it a ' +
      '`defaultWeight`, a finite number of 0 or more (the core markers weigh 1 to 2).',
    example:
      'terms:\n' +
      '  - { id: me/data-loss, kind: risk-marker, label: Data loss, description: May delete records., since: "0.1.0", broader: irreversible-action }' },
  'ontology/local-marker-bad-weight': { severity: 'warning', title: 'A local risk marker has an unusable weight',
    docs:
      'Reported on a local risk marker whose weight is negative or not a finite number. It is ' +
      'counted as 0, so it never lowers the security score. Set `defaultWeight` to a finite number ' +
      'of 0 or more.',
    example:
      'terms:\n' +
      '  - { id: me/data-loss, kind: risk-marker, label: Data loss, description: May delete records., since: "0.1.0", broader: irreversible-action, defaultWeight: -1 }' },
  'ontology/version-bump-too-small': {
    severity: 'error', title: 'A vocabulary release bumps less than its changes require',
    docs:
      'Listed for compatibility; this engine never reports it. In DarkPrint it is a release check ' +
      'of the registry service: a new release of a shared vocabulary must bump its version at least ' +
      'as far as its changes require against the published release. A bundle\'s ' +
      '`ontology/extensions.yaml` has no version of its own (each term\'s `since` is provenance ' +
      'only), so there is nothing to compare.',
    example:
      '# published as 1.0.0 with me/scraper; release 1.0.1 declared with:\n' +
      'terms: []',
    emitted: { never: 'a release check of DarkPrint\'s registry service' },
  },
  // ---- analysis/ ------------------------------------------------------------------------
  'analysis/empty-graph': { severity: 'warning', title: 'The graph has no node to analyse',
    docs:
      'Reported when the topology has no nodes, so there is nothing to score; both the autonomy and ' +
      'the security readings report it, each with its own message. The figures that come out ' +
      '(security 4, autonomy level 1) describe nothing. Add the nodes.',
    example:
      'digraph g {\n' +
      '}' },
  'analysis/unresolved-node': { severity: 'warning', title: 'A node has no card, so the analysis cannot read it',
    docs:
      'Reported when one or more nodes have no card the analysis can read: the pin failed or the ' +
      'card did not load. Such a node counts towards the total but never as running unattended, so ' +
      'the autonomy figure comes out lower than the bundle deserves, and the security checks cannot ' +
      'see its ports, tools or iteration cap. It sits on the node when exactly one is affected. Fix ' +
      'the node\'s card first; its `bundle/` diagnostics say what is wrong.',
    example:
      'digraph g {\n' +
      '  writer;\n' +
      '}' },
  'analysis/criteria-leak-suspected': { severity: 'warning', title: 'A generator\'s spec paraphrases a criteria producer\'s',
    docs:
      'Reported on a generator (a node whose work a `validation` node judges, directly or further ' +
      'upstream) whose `spec` reads like the spec of a node producing acceptance criteria: the ' +
      'Jaccard similarity of the two specs\' three-word shingles is above 0.35 (specs shorter than ' +
      'three words are not compared). There may be no edge between them, yet the criteria have been ' +
      'paraphrased into the generator\'s prompt, a leak the topology cannot show. It does not lower ' +
      'the security score. Rewrite the generator\'s spec to describe the work without restating the ' +
      'criteria.',
    example:
      '// planner outputs acceptance-criteria, spec: "List the checks the parser must pass."\n' +
      '// builder spec: "Write a parser; it must pass the checks the parser must pass."\n' +
      'digraph g {\n' +
      '  planner -> judge;  // judge is type validation\n' +
      '  builder -> judge;\n' +
      '}' },
  'analysis/criteria-leak-unanchored': { severity: 'warning', title: 'The criteria-leak check could not run',
    docs:
      'Reported once for the bundle when the criteria-leak check has only one of its two ends: ' +
      'nodes feed `validation` judges but no output is typed `acceptance-criteria` (or narrower), ' +
      'or criteria are produced but no node feeds a `validation` judge. The check does not run, so ' +
      'a top security score here only says the question was never put. When neither end ' +
      'exists it says nothing. Type the criteria port `acceptance-criteria`, and the node that ' +
      'delivers the verdict `validation` (not `tool`).',
    example:
      '// planner outputs acceptance-criteria; check is typed tool, not validation\n' +
      'digraph g {\n' +
      '  planner -> check;\n' +
      '  builder -> check;\n' +
      '}' },
  'analysis/criteria-out-of-band': { severity: 'warning', title: 'A params criteria key names nothing the graph produces',
    docs:
      'Reported on a node whose card has a top-level `params` key containing `criteri` (any case, ' +
      'as in `criteria` or `acceptance_criteria`) whose text values name nothing in the graph: none ' +
      'equals, ignoring case, a node id, a card id, an output port name, or `node.port` / ' +
      '`card.port`. Criteria that arrive through `params` rather than an edge are out of reach of ' +
      'every topology check. Name the node or port that produces them, or deliver them along an ' +
      'edge typed `acceptance-criteria`.',
    example:
      '# cards/judge@1.0.0.yaml\n' +
      'params:\n' +
      '  criteria: ./tests/acceptance.md' },
  'analysis/criteria-relayed-through-judge': { severity: 'warning', title: 'Criteria reach a generator only through a judge',
    docs:
      'Reported on a generator that acceptance criteria reach only by passing through a ' +
      '`validation` judge, as in a fix loop `planner -> judge -> fixer -> judge`. The engine cannot ' +
      'tell a judge that hands back failure evidence from one that forwards the criteria, so it ' +
      'does not charge `criteria-leak` and reports what it saw instead. Check what the judge sends ' +
      'onwards: if it is the verdict and the evidence, nothing needs to change; if it includes the ' +
      'criteria, remove that edge or port.',
    example:
      '// planner outputs acceptance-criteria; judge is type validation\n' +
      'digraph g {\n' +
      '  planner -> judge;\n' +
      '  judge -> fixer;\n' +
      '  fixer -> judge;\n' +
      '}' },
  'analysis/criteria-leak': { severity: 'warning', title: 'A generator can see its acceptance criteria',
    docs:
      'Reported on a node the analysis charges with the `criteria-leak` risk marker, so the finding ' +
      'shows where it is. Either a node whose work a `validation` judge grades can be reached from ' +
      'a node producing `acceptance-criteria` without passing through a judge, or one node outputs ' +
      'both the criteria and the work its direct judge reads. The message names the producer, the ' +
      'generator and the path. The marker costs 2 points of security. Send the criteria to the ' +
      'judge only: remove the edge that carries them to the generator, or split the node that ' +
      'writes both.',
    example:
      '// planner outputs acceptance-criteria; judge is type validation\n' +
      'digraph g {\n' +
      '  planner -> builder;\n' +
      '  planner -> judge;\n' +
      '  builder -> judge;\n' +
      '}', beyond: true },
  'analysis/unbounded-loop': { severity: 'warning', title: 'A node sits in a cycle with no iteration cap',
    docs:
      'Reported on every node of a cycle (including a node with an edge to itself) when no card in ' +
      'the cycle declares an iteration cap: a top-level `params` key `max_iterations`, ' +
      '`maxIterations` or `max_retries` holding a whole number of 0 or more (a numeric string ' +
      'counts). A `condition` on an edge does not count, since nothing evaluates it. The ' +
      '`unbounded-loop` marker costs 1.5 points of security. Add a cap to one card in the loop, ' +
      'such as `params: { max_iterations: 3 }`.',
    example:
      'digraph g {\n' +
      '  tester -> fixer;\n' +
      '  fixer -> tester;\n' +
      '}', beyond: true },
  'analysis/unvalidated-external-access': { severity: 'warning', title: 'External data reaches a node that does not validate it',
    docs:
      'Reported on a node whose `tools` include one under `web-search`, `http-fetch`, `sql` or ' +
      '`ci`, when at least one of the nodes it feeds is not typed `validation` (or has no card, or ' +
      'is the node itself). Outside data then flows on unchecked. The `unvalidated-external-access` ' +
      'marker costs 1 point of security. Route the node\'s output through a `validation` node before ' +
      'anything else uses it.',
    example:
      '// fetcher has tools: [http-fetch]; writer is type agent\n' +
      'digraph g {\n' +
      '  fetcher -> writer;\n' +
      '}', beyond: true },
});

export type DiagnosticCode = keyof typeof diagnosticsRegistry;

export function isDiagnosticCode(value: string): value is DiagnosticCode {
  return Object.prototype.hasOwnProperty.call(diagnosticsRegistry, value);
}

export function diagnosticInfo(code: DiagnosticCode): DiagnosticInfo {
  return diagnosticsRegistry[code];
}

export const allDiagnosticCodes: readonly DiagnosticCode[] = Object.keys(diagnosticsRegistry) as DiagnosticCode[];
