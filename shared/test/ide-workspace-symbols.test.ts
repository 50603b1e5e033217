/**
 * Workspace symbols over two bundles. Each case: a query and the matches expected, best first, as
 * `bundle kind name (detail) path:line`; `limit` cuts the list.
 */
import assert from 'node:assert/strict';
import { matchScore, workspaceSymbols, type IdeBundle } from '../src/ide';
import { lineIndex } from '../src/text';
import { card, loadFixture } from './support/ide';

const release = loadFixture(`
//- topology.dot
digraph release {
  request_intake [card="request-intake@1.0.0"];
  spec_planner [card="spec-planner@1.0.0"];
  ghost [card="ghost@1.0.0"];
  request_intake -> spec_planner -> ghost;
}
//- cards/request-intake@1.0.0.yaml
${card({ id: 'request-intake', outputs: [['request', 'text']] })}
//- cards/spec-planner@1.0.0.yaml
${card({ id: 'spec-planner', inputs: [['request', 'text']], dependencies: ['request-intake'] })}
//- ontology/extensions.yaml
terms:
  - id: acme/request-form
    kind: data-type
    label: Request form
    description: A filled-in request.
    since: "0.1.0"
    broader: text`).bundle;

const review = loadFixture(`
//- topology.dot
digraph review {
  reviewer [card="reviewer@1.0.0"];
  Requester;
}
//- cards/reviewer@1.0.0.yaml
${card({ id: 'reviewer' })}`).bundle;

const bundles: readonly IdeBundle[] = [release, review];
const names = ['release', 'review'];

function render(query: string, limit?: number): string[] {
  return workspaceSymbols(bundles, query, limit).map(({ bundle, symbol }) => {
    const text = bundles[bundle].files.get(symbol.location.file)?.text ?? '';
    const line = lineIndex(text).positionAt(symbol.location.span.start).line + 1;
    return `${names[bundle]} ${symbol.kind} ${symbol.name}${symbol.detail !== undefined ? ` (${symbol.detail})` : ''} ${symbol.location.file}:${line}`;
  });
}

const cases: Record<string, { readonly query: string; readonly limit?: number; readonly expected: readonly string[] }> = {
  'a prefix ranks first, then names holding the query, then subsequences, whatever the case': {
    query: 'REQ',
    expected: [
      'review node Requester topology.dot:3',
      'release node request_intake (request-intake@1.0.0) topology.dot:2',
      'release card request-intake@1.0.0 (request-intake) cards/request-intake@1.0.0.yaml:1',
      'release term acme/request-form (data-type) ontology/extensions.yaml:2',
    ],
  },
  'a subsequence matches (the characters in order, anywhere)': {
    query: 'rqi',
    expected: ['release node request_intake (request-intake@1.0.0) topology.dot:2', 'release card request-intake@1.0.0 (request-intake) cards/request-intake@1.0.0.yaml:1'],
  },
  'a node whose card the bundle lacks says so': {
    query: 'ghost',
    expected: ['release node ghost (ghost@1.0.0 (not in the bundle)) topology.dot:4'],
  },
  'no match': { query: 'zzz', expected: [] },
  'an empty query lists symbols up to the limit, shortest names first': {
    query: '',
    limit: 3,
    expected: ['release node ghost (ghost@1.0.0 (not in the bundle)) topology.dot:4', 'review node reviewer (reviewer@1.0.0) topology.dot:2', 'review node Requester topology.dot:3'],
  },
};

describe('ide: workspace symbols', function () {
  for (const [name, c] of Object.entries(cases)) it(name, () => assert.deepEqual(render(c.query, c.limit), c.expected));

  it('scores: same < prefix < substring < subsequence, and no match is -1', function () {
    const scores = ['spec', 'spec_planner', 'a_spec', 's_p_e_c', 'cpes'].map((name) => matchScore(name, 'spec'));
    assert.deepEqual(scores, [0, 1, 5, 1003, -1]);
  });
});
