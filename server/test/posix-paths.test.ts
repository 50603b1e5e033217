/**
 * The web build's POSIX path operations (server/src/posix-paths.ts) answer as Node's `path.posix`
 * for absolute paths, and the paths the web server makes of URIs (server/src/client-files.ts)
 * go back to the same URIs, never climb above their file system, and leave out what names no file.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import fc from 'fast-check';
import { posixPaths } from '../src/posix-paths';
import { pathUri, uriPath } from '../src/client-files';

const segment = fc.constantFrom('a', 'b', 'cards', '.', '..', '', 'x y', 'writer@1.0.0.yaml', '.hidden');
const absolute = fc.array(segment, { maxLength: 8 }).map((parts) => `/${parts.join('/')}`);
const relative = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));

describe('server: POSIX paths without Node', function () {
  it('answer as path.posix does for absolute paths (the folder and name of a resolved one)', function () {
    fc.assert(
      fc.property(absolute, absolute, relative, (a, b, r) => {
        assert.equal(posixPaths.resolve(a), path.posix.resolve(a), `resolve(${a})`);
        assert.equal(posixPaths.resolve(a, r), path.posix.resolve(a, r), `resolve(${a}, ${r})`);
        assert.equal(posixPaths.join(a, r), path.posix.join(a, r), `join(${a}, ${r})`);
        // (the server takes the folder and the name of resolved paths only)
        const resolved = path.posix.resolve(a);
        assert.equal(posixPaths.dirname(resolved), path.posix.dirname(resolved), `dirname(${resolved})`);
        assert.equal(posixPaths.basename(resolved), path.posix.basename(resolved), `basename(${resolved})`);
        assert.equal(posixPaths.relative(a, b), path.posix.relative(a, b), `relative(${a}, ${b})`);
        assert.equal(posixPaths.isAbsolute(r), path.posix.isAbsolute(r));
      }),
      { numRuns: 3000, seed: 20240611 },
    );
  });
});

describe('server: the paths of URIs in the web build', function () {
  it('name a URI of any scheme by a path below its scheme and authority, and give the URI back', function () {
    const cases: [string, string][] = [
      ['vscode-vfs://github/owner/repo/bundle/topology.dot', '/vscode-vfs/@github/owner/repo/bundle/topology.dot'],
      ['vscode-remote://127.0.0.1:8080/home/me/b/cards/writer@1.0.0.yaml', '/vscode-remote/@127.0.0.1%3A8080/home/me/b/cards/writer@1.0.0.yaml'],
      ['file:///tmp/x%20y/topology.dot', '/file/@/tmp/x y/topology.dot'],
      ['vscode-test-web://mount/', '/vscode-test-web/@mount'],
    ];
    for (const [uri, file] of cases) {
      assert.equal(uriPath(uri), file, uri);
      assert.equal(uriPath(pathUri(file)!), file, `${file} goes back to ${pathUri(file)}`);
    }
    assert.equal(pathUri('/vscode-remote/@127.0.0.1%3A8080/home/me/b/cards/writer@1.0.0.yaml'), 'vscode-remote://127.0.0.1:8080/home/me/b/cards/writer@1.0.0.yaml');
    assert.equal(pathUri('/file/@/tmp/x y/topology.dot'), 'file:///tmp/x%20y/topology.dot');
  });

  it('keep a path with `..` below its authority, and name nothing for a URI with a query, a fragment or no path', function () {
    assert.equal(uriPath('vscode-remote://host/a/../../../etc/passwd'), '/vscode-remote/@host/etc/passwd');
    assert.equal(uriPath('git:/repo/topology.dot?{"ref":"HEAD"}'), undefined);
    assert.equal(uriPath('vscode-vfs://github/a/topology.dot#L3'), undefined);
    assert.equal(uriPath('untitled:Untitled-1'), undefined);
    assert.equal(uriPath('file:///bad%E0%A4%A'), undefined);
    assert.equal(pathUri('/'), undefined);
    assert.equal(pathUri('/vscode-vfs'), undefined);
  });

  it('round-trip any folder and file names', function () {
    const name = fc.string({ minLength: 1, maxLength: 12 }).filter((n) => !n.includes('/') && n !== '.' && n !== '..' && !/[\uD800-\uDFFF]/.test(n));
    fc.assert(
      fc.property(fc.constantFrom('vscode-vfs', 'file', 'vscode-remote'), fc.constantFrom('', 'github', 'h:1'), fc.array(name, { minLength: 1, maxLength: 5 }), (scheme, authority, names) => {
        const file = `/${scheme}/@${encodeURIComponent(authority)}/${names.join('/')}`;
        const uri = pathUri(file);
        assert.ok(uri !== undefined);
        assert.equal(uriPath(uri), file, uri);
      }),
      { numRuns: 2000, seed: 20240611 },
    );
  });
});
