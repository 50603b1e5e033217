/**
 * The server's log, written to the client's (`window/logMessage`): errors always, warnings and
 * debug lines as `darkprint.logLevel` allows (./settings.ts `logsAt`). A message to a connection
 * that is gone is dropped: nothing a client does may stop the server.
 */
import type { Connection } from 'vscode-languageserver';
import { logsAt, type LogLevel } from './settings';

export interface Logger {
  /** An error (a handler or a task that failed): always written. */
  readonly log: (message: string) => void;
  /** Something the client sent that is ignored, or a setting that is: from `darkprint.logLevel: warning` on. */
  readonly warn: (message: string) => void;
  /** What only `darkprint.logLevel: debug` shows (how the server tunes its memory). */
  readonly debug: (message: string) => void;
}

/** The log on `connection`, at the level `level()` names when a message is written. */
export function createLogger(connection: Connection, level: () => LogLevel): Logger {
  const log = (message: string): void => {
    try {
      connection.console.error(message);
    } catch {
      // the connection is gone: nothing left to tell
    }
  };
  const warn = (message: string): void => {
    if (!logsAt(level(), 'warning')) return;
    try {
      connection.console.warn(message);
    } catch {
      // the connection is gone: nothing left to tell
    }
  };
  const debug = (message: string): void => {
    if (!logsAt(level(), 'debug')) return;
    try {
      connection.console.log(message);
    } catch {
      // the connection is gone: nothing left to tell
    }
  };
  return { log, warn, debug };
}
