/**
 * Work-done progress of a scan (`window/workDoneProgress`), for a client that declares it. The
 * scan does not wait for the client to take the token: what it reports before then is left
 * out (the latest message goes with `begin`), and a token taken after the scan ended is begun
 * and ended at once. A client that refuses the token sees no progress, and nothing fails.
 */
import type { ClientCapabilities, Connection, WorkDoneProgressServerReporter } from 'vscode-languageserver';

export interface ScanProgress {
  report(message: string, percentage: number): void;
  done(): void;
}

export function scanProgress(connection: Connection, capabilities: ClientCapabilities, title: string): ScanProgress {
  let reporter: WorkDoneProgressServerReporter | undefined;
  let latest = { message: '', percentage: 0 };
  let ended = false;
  const quietly = (send: () => void): void => {
    try {
      send();
    } catch {
      // the connection is gone: nothing left to tell
    }
  };
  if (capabilities.window?.workDoneProgress === true) {
    quietly(() =>
      connection.window.createWorkDoneProgress().then(
        (created) => {
          reporter = created;
          quietly(() => created.begin(title, latest.percentage, latest.message || undefined));
          if (ended) quietly(() => created.done());
        },
        () => {
          // the client refused the token (as it may): the scan goes on without progress
        },
      ),
    );
  }
  return {
    report(message, percentage) {
      latest = { message, percentage };
      const to = reporter;
      if (to && !ended) quietly(() => to.report(percentage, message));
    },
    done() {
      if (ended) return;
      ended = true;
      const to = reporter;
      if (to) quietly(() => to.done());
    },
  };
}
