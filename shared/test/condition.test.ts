/**
 * The condition grammar (docs/compatibility.md#condition-grammar): every problem kind, where it
 * points, and the conditions that parse. Each row is
 * `[condition, [problem, the text its range covers][]]`.
 */
import assert from 'node:assert/strict';
import { checkCondition, conditionKeyKind, parseCondition, tokenizeCondition } from '../src/check/condition';
import type { ConditionProblemKind } from '../src/check/condition';

type Row = readonly [condition: string, problems: readonly (readonly [ConditionProblemKind, string])[]];

const valid: readonly string[] = [
  'outcome=success',
  'outcome!=fail',
  'context.tests.passed=true && preferred_label="Fix"',
  'preferred_label=Fix',
  'context.confidence = high',
  '  outcome=success  &&  context.size!=0 ',
  'context.score=0.8',
  'context.delta=-1',
  'context.path="c:\\\\build dir"',
  'context.loop_state!=exhausted',
  'outcome="partial_success"',
];

const invalid: readonly Row[] = [
  ['', [['empty-expression', '']]],
  ['   ', [['empty-expression', '   ']]],
  ['outcome="success', [['unterminated-string', '"success']]],
  ['outcome=success && (context.a=b)', [['parenthesis', '(']]],
  ['outcome=success)', [['parenthesis', ')']]],
  ['outcome=success &&', [['empty-clause', '&&']]],
  ['&& outcome=success', [['empty-clause', '&&']]],
  ['outcome=success && && outcome!=fail', [['empty-clause', '&&']]],
  ['context.score>=0.8', [['future-operator', '>=']]],
  ['context.score > 1', [['future-operator', '>']]],
  ['outcome=success || outcome=retry', [['future-operator', '||']]],
  ['!context.done', [['future-operator', '!']]],
  ['context.name contains x', [['future-operator', 'contains']]],
  ['NOT outcome', [['future-operator', 'NOT']]],
  ['outcome==success', [['unknown-operator', '==']]],
  ['outcome=!success', [['unknown-operator', '=!']]],
  ['context.tests_passed', [['bare-key', 'context.tests_passed']]],
  ['tests_passed', [['bare-key', 'tests_passed']]],
  ['outcome success', [['missing-operator', 'outcome success']]],
  ['=success', [['missing-key', '=']]],
  ['outcome context=success', [['bad-key', 'outcome context']]],
  ['"outcome"=success', [['bad-key', '"outcome"']]],
  ['status=success', [['unknown-key', 'status']]],
  ['context.loop-state=done', [['unknown-key', 'context.loop-state']]],
  ['context.=x', [['unknown-key', 'context.']]],
  ['context.a..b=x', [['unknown-key', 'context.a..b']]],
  ['outcome=', [['missing-literal', '=']]],
  ['outcome!=', [['missing-literal', '!=']]],
  ['outcome=success fail', [['bad-literal', 'success fail']]],
  ['outcome=@', [['bad-literal', '@']]],
  ['context.path=c:\\build', [['bad-literal', 'c:\\build']]],
  // one problem per clause, several clauses
  ['status=ok && outcome== fail && context.x=1', [['unknown-key', 'status'], ['unknown-operator', '==']]],
  // the first problem of a clause wins: an operator problem before a key problem
  ['bad key >= 3', [['future-operator', '>=']]],
];

describe('condition grammar', () => {
  for (const condition of valid) {
    it(`accepts ${JSON.stringify(condition)}`, () => {
      assert.deepEqual(checkCondition(condition), []);
      assert.ok(parseCondition(condition).clauses.length > 0);
    });
  }
  for (const [condition, expected] of invalid) {
    it(`reports ${expected.map(([p]) => p).join(', ')} in ${JSON.stringify(condition)}`, () => {
      const problems = checkCondition(condition);
      assert.deepEqual(
        problems.map((p) => [p.problem, condition.slice(p.start, p.end)]),
        expected.map(([p, text]) => [p, text]),
      );
      for (const p of problems) {
        assert.ok(p.message.length > 0 && p.message.endsWith('.'), `message is a sentence: ${p.message}`);
        assert.ok(p.start >= 0 && p.end <= condition.length && p.start <= p.end);
      }
    });
  }

  it('covers every problem kind', () => {
    const kinds = new Set(invalid.flatMap(([, expected]) => expected.map(([p]) => p)));
    const all: ConditionProblemKind[] = [
      'empty-expression', 'unterminated-string', 'parenthesis', 'empty-clause', 'future-operator', 'unknown-operator',
      'bare-key', 'missing-operator', 'missing-key', 'bad-key', 'unknown-key', 'missing-literal', 'bad-literal',
    ];
    assert.deepEqual(all.filter((k) => !kinds.has(k)), []);
  });

  it('names the problem in the message', () => {
    const [unknownKey] = checkCondition('status=ok');
    assert.match(unknownKey.message, /`status`/);
    assert.match(unknownKey.message, /context\.status/);
    const [doubled] = checkCondition('outcome==success');
    assert.match(doubled.message, /single `=`/);
  });

  it('reads the clauses of a valid condition', () => {
    const { clauses, problems } = parseCondition('context.tests.passed=true && preferred_label="Fix \\"it\\""');
    assert.deepEqual(problems, []);
    assert.deepEqual(
      clauses.map((c) => [c.key, c.keyKind, c.operator, c.value, c.quoted]),
      [
        ['context.tests.passed', 'context', '=', 'true', false],
        ['preferred_label', 'preferred_label', '=', 'Fix "it"', true],
      ],
    );
  });

  it('tokenizes for completion, even an unfinished string', () => {
    const tokens = tokenizeCondition('outcome != "fa');
    assert.deepEqual(
      tokens.map((t) => [t.kind, t.text, t.start, t.end, t.terminated]),
      [
        ['word', 'outcome', 0, 7, true],
        ['operator', '!=', 8, 10, true],
        ['string', '"fa', 11, 14, false],
      ],
    );
    assert.deepEqual(tokenizeCondition('a&&(b)').map((t) => t.kind), ['word', 'and', 'open', 'word', 'close']);
    assert.deepEqual(tokenizeCondition('"a\\tb\\qc"').map((t) => t.value), ['a\tb' + 'qc']);
  });

  it('classifies keys', () => {
    assert.equal(conditionKeyKind('outcome'), 'outcome');
    assert.equal(conditionKeyKind('preferred_label'), 'preferred_label');
    assert.equal(conditionKeyKind('context.a.b_2'), 'context');
    assert.equal(conditionKeyKind('context.2a'), undefined);
    assert.equal(conditionKeyKind('Outcome'), undefined);
  });
});
