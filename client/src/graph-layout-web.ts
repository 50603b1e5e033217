/**
 * Laying out pictures off the web extension host's thread: one Web Worker
 * (./graph-worker-web.ts, `client/out/graph-worker-web.js`) started on the first picture and
 * kept, each picture posted with an id and its SVG awaited; the twin of ./graph-layout.ts, which
 * uses a Node worker thread. A worker that fails fails the pictures it held, and the next picture
 * starts a new one. Knows no `vscode` API.
 */
import type { Picture } from '../../shared/src';
import type { Layout, LayoutReply, LayoutRequest } from './graph-layout';

/** What the layout uses of a Web Worker (the client is compiled without the DOM's types). */
interface WebWorker {
  onmessage: ((event: { readonly data: LayoutReply }) => void) | null;
  onerror: ((event: { readonly message?: string }) => void) | null;
  postMessage(request: LayoutRequest): void;
  terminate(): void;
}

/** A layout on a Web Worker loaded from the URL `script` gives (of the built `graph-worker-web.js`). */
export function createWebLayout(script: () => Promise<string>): Layout {
  const WorkerClass = (globalThis as unknown as { Worker?: new (url: string) => WebWorker }).Worker;
  let worker: Promise<WebWorker> | undefined;
  let last = 0;
  const waiting = new Map<number, { resolve(svg: string): void; reject(error: Error): void }>();

  const failAll = (error: Error): void => {
    for (const entry of waiting.values()) entry.reject(error);
    waiting.clear();
  };

  const start = async (): Promise<WebWorker> => {
    if (WorkerClass === undefined) throw new Error('this editor runs extensions where no Web Worker can be started, so the graph cannot be laid out');
    const started = new WorkerClass(await script());
    started.onmessage = (event) => {
      const reply = event.data;
      const entry = waiting.get(reply.id);
      if (entry === undefined) return;
      waiting.delete(reply.id);
      if ('svg' in reply) entry.resolve(reply.svg);
      else entry.reject(new Error(reply.error));
    };
    started.onerror = (event) => {
      worker = undefined;
      started.terminate();
      failAll(new Error(`the layout worker failed: ${event.message ?? 'no reason given'}`));
    };
    return started;
  };

  return {
    async render(picture) {
      const id = ++last;
      const starting = (worker ??= start());
      let thread: WebWorker;
      try {
        thread = await starting;
      } catch (error) {
        if (worker === starting) worker = undefined;
        throw error instanceof Error ? error : new Error(String(error));
      }
      return new Promise<string>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        thread.postMessage({ id, picture });
      });
    },
    dispose() {
      const stopping = worker;
      worker = undefined;
      failAll(new Error('the graph view was closed'));
      void stopping?.then((thread) => thread.terminate(), () => undefined);
    },
  };
}
