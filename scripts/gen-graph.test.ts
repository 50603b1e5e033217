/**
 * The drawings `npm run gen` writes (scripts/gen-docs.ts `generatedPictures`): the committed
 * `docs/example-graph.svg` is the example bundle as the renderer draws it now, and the README
 * shows it.
 */
import assert from 'node:assert/strict';
import { exampleGraphPath, generatedPictures, readmePath, readRepoFile } from './gen-docs';

describe('gen-docs: the example bundle’s picture', () => {
  it(`${exampleGraphPath} is up to date`, async () => {
    const pictures = await generatedPictures();
    assert.deepEqual(pictures.map((p) => p.path), [exampleGraphPath]);
    const committed = readRepoFile(exampleGraphPath);
    assert.ok(committed !== undefined, `${exampleGraphPath} is missing: run \`npm run gen\` and commit it`);
    assert.ok(committed === pictures[0].content, `${exampleGraphPath} is stale: run \`npm run gen\` and commit the result`);
  });

  it('is drawn on a white ground, with a block per node of the example', async () => {
    const [picture] = await generatedPictures();
    assert.ok(picture.content.startsWith('<svg class="dp-picture" '));
    assert.match(picture.content, /<polygon fill="#ffffff" stroke="none"/);
    for (const id of ['request_intake', 'acceptance_judge', 'release_publisher']) assert.ok(picture.content.includes(`<g id="dp-n-${id}" `), id);
  });

  it('the README shows it', () => {
    assert.ok(readRepoFile(readmePath)?.includes(`](${exampleGraphPath})`), `the README has no image of ${exampleGraphPath}`);
  });
});
