import assert from 'node:assert/strict';
import {
  compareSemver,
  compareVersionStrings,
  formatSemver,
  isLooseVersion,
  isStrictSemver,
  lowestVersionFor,
  parseSemver,
  type BumpLevel,
} from '../src/check/semver';

describe('semver: strict parse (semver.org grammar)', () => {
  const valid = ['0.0.0', '1.2.3', '10.20.30', '1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-0.3.7', '1.0.0-x.7.z.92', '1.0.0-x-y-z.--', '1.0.0+20130313144700', '1.0.0-beta+exp.sha.5114f85', '1.0.0-rc.1+build.1', '1.0.0-0a', '999999999.0.0'];
  const invalid = ['', '1', '1.2', '1.2.3.4', 'v1.2.3', ' 1.2.3', '1.2.3 ', '01.0.0', '1.02.0', '1.0.03', '1.0.0-', '1.0.0-01', '1.0.0-alpha..1', '1.0.0+', '1.0.0+a+b', '1.0.0-a_b', 'latest', '1.x', '^1.0.0', '~1.2', '*', '-1.0.0'];
  for (const v of valid) it(`accepts ${v}`, () => {
    assert.ok(isStrictSemver(v));
    const parsed = parseSemver(v);
    assert.ok(parsed);
    assert.equal(formatSemver(parsed), v);
  });
  for (const v of invalid) it(`rejects ${JSON.stringify(v)}`, () => {
    assert.equal(isStrictSemver(v), false);
    assert.equal(parseSemver(v), undefined);
  });
  it('splits the parts', () => {
    assert.deepEqual(parseSemver('1.2.3-rc.1+b.2'), { major: 1, minor: 2, patch: 3, prerelease: ['rc', '1'], build: ['b', '2'] });
  });
});

describe('semver: precedence (semver.org §11)', () => {
  const ascending = [
    '0.9.9', '1.0.0-0', '1.0.0-1', '1.0.0-2', '1.0.0-10', '1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta',
    '1.0.0-beta.2', '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0', '1.0.1', '1.1.0', '1.10.0', '2.0.0', '10.0.0',
  ];
  it('orders the semver.org examples and numeric identifiers numerically', () => {
    for (let i = 0; i < ascending.length; i++) {
      for (let j = 0; j < ascending.length; j++) {
        const a = parseSemver(ascending[i]);
        const b = parseSemver(ascending[j]);
        assert.ok(a && b);
        assert.equal(Math.sign(compareSemver(a, b)), Math.sign(i - j), `${ascending[i]} vs ${ascending[j]}`);
      }
    }
  });
  it('ignores build metadata', () => {
    assert.equal(compareVersionStrings('1.0.0+a', '1.0.0+b'), 0);
    assert.equal(compareVersionStrings('1.0.0-rc.1+a', '1.0.0-rc.1'), 0);
  });
  it('sorts unparseable strings below valid ones, and among themselves by code units', () => {
    const sorted = ['2.0.0', 'latest', '1.0.0', 'v1', '1.0', '0.0.1'].sort(compareVersionStrings);
    assert.deepEqual(sorted, ['1.0', 'latest', 'v1', '0.0.1', '1.0.0', '2.0.0']);
  });
});

describe('semver: the loose version of a card reference', () => {
  const table: [string, boolean][] = [
    ['1.0.0', true], ['1.x', true], ['1', true], ['1.0.0-rc.1+b', true], ['0', true],
    ['latest', false], ['v1.0.0', false], ['', false], ['^1.0.0', false], ['1.0.0 ', false], ['1.0_0', false],
  ];
  for (const [v, ok] of table) it(`${JSON.stringify(v)} is ${ok ? '' : 'not '}a loose version`, () => assert.equal(isLooseVersion(v), ok));
});

describe('semver: the lowest version satisfying a bump', () => {
  const table: [string, BumpLevel, string | undefined][] = [
    ['1.2.3', 'major', '2.0.0'],
    ['1.2.3', 'minor', '1.3.0'],
    ['1.2.3', 'patch', '1.2.4'],
    ['1.2.3-rc.1+b', 'patch', '1.2.4'],
    ['0.1.0', 'major', '1.0.0'],
    ['1.2.3', 'none', undefined],
    ['1.2', 'patch', undefined],
  ];
  for (const [v, level, expected] of table) it(`${v} + ${level} -> ${expected}`, () => assert.equal(lowestVersionFor(v, level), expected));
});
