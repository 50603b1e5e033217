/**
 * Disk work (scans, reads after watched-file events) runs one task at a time, in order. A scan
 * lets urgent tasks (finding and reading the bundle of a document just opened) run between its
 * folders and its bundles, so that requests about open documents never wait for a whole
 * workspace to be walked.
 */
import { describe } from './publish';

export interface DiskQueue {
  /** Runs `task` after the disk work queued before it; a failure is logged under `name`. */
  onDisk(name: string, task: () => Promise<void>): Promise<void>;
  /** Runs `task` at the next step of the scan that is running, or in turn when none is (whichever comes first). */
  onDiskUrgently(name: string, task: () => Promise<void>): Promise<void>;
  /** True when urgent tasks wait (a scan then runs them at its next step). */
  urgentWaiting(): boolean;
  /** Runs the urgent tasks waiting (a scan calls this between its steps: see ./bundles.ts `rescan`). */
  runUrgent(): Promise<void>;
}

export function createDiskQueue(log: (message: string) => void): DiskQueue {
  let diskQueue: Promise<void> = Promise.resolve();
  const onDisk = (name: string, task: () => Promise<void>): Promise<void> => {
    const run = diskQueue.then(task).catch((error: unknown) => log(`darkprint: ${name} failed: ${describe(error)}`));
    diskQueue = run;
    return run;
  };
  const urgent: (() => Promise<void>)[] = [];
  const runUrgent = async (): Promise<void> => {
    for (let task = urgent.shift(); task !== undefined; task = urgent.shift()) await task();
  };
  const onDiskUrgently = (name: string, task: () => Promise<void>): Promise<void> =>
    new Promise<void>((resolve) => {
      urgent.push(() => task().catch((error: unknown) => log(`darkprint: ${name} failed: ${describe(error)}`)).finally(resolve));
      void onDisk(name, runUrgent);
    });
  return { onDisk, onDiskUrgently, urgentWaiting: () => urgent.length > 0, runUrgent };
}
