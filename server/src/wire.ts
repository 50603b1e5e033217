/**
 * Writing messages to the client. A large bundle's topology can carry thousands of diagnostics,
 * and every edit sends the whole list again; serialising it anew each time is most of the cost
 * of sending it. The publisher (./publish.ts) keeps each diagnostic's JSON text, so on stream
 * transports (`--stdio`) the server writes a publication by joining those texts: the writer's
 * JSON encoder looks the message's parameters up among the prepared ones and, when found, writes
 * `{"jsonrpc":…,"method":…,"params":<prepared JSON>}`, which is byte for byte the UTF-8 of
 * `JSON.stringify` of the message. Every other message, and every message on the
 * `--node-ipc` transport (where Node serialises what it sends), is encoded as usual.
 */
import { format } from 'node:util';
import type { ContentTypeEncoder, ContentTypeEncoderOptions, Message, NotificationMessage } from 'vscode-languageserver/node';

/**
 * Prepared JSON of outgoing parameter objects, until they are written (weakly held: a message
 * that is never written leaves nothing behind). The JSON comes as UTF-8 pieces to be written one
 * after the other.
 */
export interface PreparedTexts {
  /** Records that `params`, when sent, is written as the pieces `json()` gives. */
  prepare(params: object, json: () => readonly Uint8Array[]): void;
  /** The JSON of a whole message, as UTF-8, when its parameters were prepared; else undefined. */
  messageJson(message: Message): Uint8Array | undefined;
}

export function createPreparedTexts(): PreparedTexts {
  const prepared = new WeakMap<object, () => readonly Uint8Array[]>();
  return {
    prepare(params, json) {
      prepared.set(params, json);
    },
    messageJson(message) {
      if (!isNotification(message) || typeof message.params !== 'object' || message.params === null) return undefined;
      const json = prepared.get(message.params);
      if (json === undefined) return undefined;
      prepared.delete(message.params);
      // only the shape `JSON.stringify` would write in this key order: { jsonrpc, method, params }
      const keys = Object.keys(message);
      if (keys.length !== 3 || keys[0] !== 'jsonrpc' || keys[1] !== 'method' || keys[2] !== 'params') return undefined;
      const head = Buffer.from(`{"jsonrpc":${JSON.stringify(message.jsonrpc)},"method":${JSON.stringify(message.method)},"params":`);
      return Buffer.concat([head, ...json(), closingBrace]);
    },
  };
}

const closingBrace = Buffer.from('}');

function isNotification(message: Message): message is NotificationMessage {
  return typeof (message as { method?: unknown }).method === 'string' && !('id' in message);
}

/** The `application/json` encoder of a stream writer that writes prepared messages from their texts. */
export function preparedEncoder(texts: PreparedTexts): ContentTypeEncoder {
  return {
    name: 'application/json',
    encode(message: Message, options: ContentTypeEncoderOptions): Promise<Uint8Array> {
      try {
        // prepared pieces are UTF-8: used only when that is the charset the writer announces
        const prepared = options.charset === 'utf-8' ? texts.messageJson(message) : undefined;
        return Promise.resolve(prepared ?? Buffer.from(JSON.stringify(message, undefined, 0), options.charset));
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}

/**
 * On `--stdio`, standard output carries the protocol: what the process would print there goes to
 * the client's log instead, at the matching level (as `createConnection` does when it picks the
 * transport itself).
 */
export function routeConsole(log: { error(message: string): void; warn(message: string): void; info(message: string): void; log(message: string): void }): void {
  const to = (write: (message: string) => void) => (...args: unknown[]): void => write(format(...args));
  console.error = to((message) => log.error(message));
  console.warn = to((message) => log.warn(message));
  console.info = to((message) => log.info(message));
  console.log = to((message) => log.log(message));
  console.debug = to((message) => log.log(message));
  console.trace = to((message) => log.log(message));
}
