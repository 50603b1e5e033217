/**
 * The graph view's layout thread in the browser, `client/out/graph-worker-web.js`: a Web Worker
 * that lays out the picture models the web extension posts with the engine's renderer (Graphviz
 * compiled to WebAssembly, loaded once) and posts the SVG back; the twin of ./graph-worker.ts,
 * which runs on a Node worker thread. ./graph-layout-web.ts starts it.
 */
import type { Picture } from '../../shared/src';
import { renderPicture } from '../../shared/src';
import type { LayoutReply, LayoutRequest } from './graph-layout';

/** What this Worker uses of its global scope (the client is compiled without the DOM's types). */
interface WorkerScope {
  onmessage: ((event: { readonly data: LayoutRequest }) => void) | null;
  postMessage(reply: LayoutReply): void;
}

const scope = globalThis as unknown as WorkerScope;
scope.onmessage = (event) => {
  const request = event.data;
  void layout(request.picture).then((reply) => scope.postMessage({ id: request.id, ...reply }));
};

async function layout(picture: Picture): Promise<{ svg: string } | { error: string }> {
  try {
    return { svg: await renderPicture(picture) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
