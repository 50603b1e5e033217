/**
 * Laying out pictures off the extension host's thread: one worker thread (./graph-worker.ts,
 * `client/out/graph-worker.js`) started on the first picture and kept, each picture posted with an
 * id and its SVG awaited. A worker that fails or exits fails the pictures it held, and the next
 * picture starts a new one. Knows no `vscode` API.
 */
import { Worker } from 'worker_threads';
import type { Picture } from '../../shared/src';

export interface LayoutRequest {
  readonly id: number;
  readonly picture: Picture;
}

export type LayoutReply = { readonly id: number; readonly svg: string } | { readonly id: number; readonly error: string };

export interface Layout {
  /** The picture as SVG, as the engine's `renderPicture` draws it. */
  render(picture: Picture): Promise<string>;
  dispose(): void;
}

/** A layout on a worker running `script` (the built `graph-worker.js`). */
export function createLayout(script: string): Layout {
  let worker: Worker | undefined;
  let last = 0;
  const waiting = new Map<number, { resolve(svg: string): void; reject(error: Error): void }>();

  const failAll = (error: Error): void => {
    for (const entry of waiting.values()) entry.reject(error);
    waiting.clear();
  };

  const start = (): Worker => {
    const started = new Worker(script);
    // (an idle layout thread does not keep the extension host alive)
    started.unref();
    started.on('message', (reply: LayoutReply) => {
      const entry = waiting.get(reply.id);
      if (entry === undefined) return;
      waiting.delete(reply.id);
      if ('svg' in reply) entry.resolve(reply.svg);
      else entry.reject(new Error(reply.error));
    });
    started.on('error', (error) => {
      if (worker === started) worker = undefined;
      failAll(error);
    });
    started.on('exit', (code) => {
      if (worker === started) worker = undefined;
      failAll(new Error(`the layout thread stopped (exit code ${code})`));
    });
    return started;
  };

  return {
    render(picture) {
      worker ??= start();
      const id = ++last;
      const thread = worker;
      return new Promise<string>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        thread.postMessage({ id, picture } satisfies LayoutRequest);
      });
    },
    dispose() {
      const stopping = worker;
      worker = undefined;
      failAll(new Error('the graph view was closed'));
      void stopping?.terminate();
    },
  };
}
