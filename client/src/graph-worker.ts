/**
 * The graph view's layout thread: lays out the picture models the extension posts with the engine's
 * renderer (Graphviz compiled to WebAssembly, loaded once on the first picture) and posts the SVG
 * back. Graphviz's layout is synchronous and grows faster than the graph (seconds at 2,000 nodes),
 * so it runs here, not on the extension host's own thread, where it would hold up every other
 * extension and the language client while it runs. Built to `client/out/graph-worker.js`
 * (scripts/build.mjs); ./graph-layout.ts starts it.
 */
import { parentPort } from 'worker_threads';
import type { Picture } from '../../shared/src';
import { renderPicture } from '../../shared/src';
import type { LayoutReply, LayoutRequest } from './graph-layout';

const port = parentPort;
if (port !== null) {
  port.on('message', (request: LayoutRequest) => {
    void layout(request.picture).then((reply) => port.postMessage({ id: request.id, ...reply } satisfies LayoutReply));
  });
}

async function layout(picture: Picture): Promise<{ svg: string } | { error: string }> {
  try {
    return { svg: await renderPicture(picture) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
