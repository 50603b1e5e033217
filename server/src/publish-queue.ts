/**
 * When a bundle is published: its quiet time after an edit (the debounce), then its turn in the
 * run queue. Superseded work is dropped rather than done: a new edit restarts the bundle's quiet
 * time and takes it out of the run queue; the queue runs one bundle per event-loop turn, so edits
 * that arrive meanwhile are read before the next bundle is computed. The queue knows bundles by
 * root only; what running one means is its owner's (./publish.ts).
 */

export interface PublishQueue {
  /** Runs the bundle after `delayMs` of quiet (0: on a coming turn, in the queue's order). */
  schedule(root: string, delayMs: number): void;
  /** Puts the bundle in the run queue (where it keeps its place if it already is). */
  enqueue(root: string): void;
  /** Drops the bundle's pending run, if any: its timer and its place in the queue. */
  cancel(root: string): void;
}

/**
 * The queue of one publisher: `run` is called with a root on a later turn of the event loop,
 * given by `nextTurn` (default `setImmediate`; a Web Worker has none).
 */
export function createPublishQueue(run: (root: string) => void, nextTurn?: (task: () => void) => void): PublishQueue {
  const later = nextTurn ?? ((task: () => void): void => void setImmediate(task));
  const timers = new Map<string, NodeJS.Timeout>();
  const queue = new Set<string>();
  let draining = false;

  const drain = (): void => {
    draining = false;
    const next = queue.values().next();
    if (next.done) return;
    const root = next.value;
    queue.delete(root);
    run(root);
    if (queue.size > 0) {
      draining = true;
      later(drain);
    }
  };

  const enqueue = (root: string): void => {
    queue.add(root);
    if (!draining) {
      draining = true;
      later(drain);
    }
  };

  return {
    schedule(root, delayMs) {
      const existing = timers.get(root);
      if (existing) clearTimeout(existing);
      timers.delete(root);
      if (delayMs <= 0) {
        enqueue(root);
        return;
      }
      queue.delete(root);
      timers.set(
        root,
        setTimeout(() => {
          timers.delete(root);
          enqueue(root);
        }, delayMs),
      );
    },
    enqueue,
    cancel(root) {
      const timer = timers.get(root);
      if (timer) clearTimeout(timer);
      timers.delete(root);
      queue.delete(root);
    },
  };
}
