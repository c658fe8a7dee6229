/**
 * The hook's client mode (`shellgate hook AGENT --server [SOCKET]`): send the event to a running
 * `shellgate serve` and print its answer. Whenever the server cannot give the answer the hook
 * would give in-process — not running, its socket directory not private, a refused peer, other
 * policy options or another version, no answer in time, an answer that is not a whole
 * HookAnswer — this returns `unavailable` and the hook decides in-process: never fails open, and
 * never takes a decision from a socket another user could have planted.
 */
import { lstatSync } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname } from 'node:path';
import { parseAnswer, type ServeAnswer, type ServeRequest } from './protocol.js';
import { currentUid, defaultSocketPath, privateDirProblem } from './socket-path.js';

export type ServerReply = { answer: ServeAnswer } | { unavailable: string; quiet: boolean };

export interface AskOptions {
  /** Connecting (default 1 s). */
  connectTimeoutMs?: number;
  /** The answer after the request is sent (default 10 s; the in-process decision follows). */
  answerTimeoutMs?: number;
}

export function askServer(socketPath: string | null, request: ServeRequest, opts: AskOptions = {}): Promise<ServerReply> {
  let path: string;
  try {
    path = socketPath ?? defaultSocketPath();
    const problem = privateDirProblem(dirname(path));
    if (problem !== null) {
      // Not running (no directory) is the ordinary case after an idle exit: say nothing.
      return Promise.resolve({ unavailable: `not using ${path}: ${problem}`, quiet: /does not exist$/.test(problem) });
    }
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (st === undefined) return Promise.resolve({ unavailable: `no server at ${path}`, quiet: true });
    if (!st.isSocket() || st.uid !== currentUid()) return Promise.resolve({ unavailable: `not using ${path}: not a socket of yours`, quiet: false });
  } catch (e) {
    return Promise.resolve({ unavailable: (e as Error).message, quiet: false });
  }
  return new Promise((resolve) => {
    let settled = false;
    const chunks: Buffer[] = [];
    const socket = createConnection(path);
    const done = (r: ServerReply): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(r);
    };
    let timer = setTimeout(() => done({ unavailable: `no connection to ${path} in time`, quiet: false }), opts.connectTimeoutMs ?? 1000);
    socket.once('connect', () => {
      clearTimeout(timer);
      timer = setTimeout(() => done({ unavailable: `no answer from ${path} in time`, quiet: false }), opts.answerTimeoutMs ?? 10_000);
      socket.write(JSON.stringify(request) + '\n');
    });
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      if (!c.includes(10)) return;
      const text = Buffer.concat(chunks).toString('utf8');
      const answer = parseAnswer(text.slice(0, text.indexOf('\n')));
      if (answer === null) return done({ unavailable: `the server at ${path} answered something that is not a hook answer`, quiet: false });
      if (answer.error !== undefined) return done({ unavailable: `the server refused: ${answer.error}`, quiet: false });
      done({ answer });
    });
    socket.once('error', (e: NodeJS.ErrnoException) =>
      done({ unavailable: `no server at ${path} (${e.code ?? e.message})`, quiet: e.code === 'ECONNREFUSED' || e.code === 'ENOENT' }),
    );
    socket.once('close', () => done({ unavailable: `the server at ${path} closed the connection without answering`, quiet: false }));
  });
}
