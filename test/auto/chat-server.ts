/**
 * A real HTTP server on 127.0.0.1 that speaks the chat-completions wire format, scripted per
 * request. Each test queues the behaviour of the next requests.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Behaviour =
  { answer: unknown; delayMs?: number } | { status: number; body?: string } | { raw: string } | { cutOff: true } | { reset: true } | { hang: true };

export interface ChatServer {
  url: string;
  requests: { body: Record<string, unknown> }[];
  queue(...b: Behaviour[]): void;
  close(): Promise<void>;
}

function completion(content: string): string {
  return JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });
}

export async function startChatServer(): Promise<ChatServer> {
  const pending: Behaviour[] = [];
  const requests: { body: Record<string, unknown> }[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      try {
        requests.push({ body: JSON.parse(data) as Record<string, unknown> });
      } catch {
        requests.push({ body: {} });
      }
      const b = pending.shift() ?? { status: 500, body: 'no behaviour queued' };
      if ('reset' in b) {
        req.socket.destroy();
        return;
      }
      if ('hang' in b) return;
      if ('cutOff' in b) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
        res.write('{"choices":[{"message":{"content":"{\\"shouldB');
        setTimeout(() => req.socket.destroy(), 20);
        return;
      }
      if ('status' in b) {
        res.writeHead(b.status, { 'content-type': 'application/json' });
        res.end(b.body ?? '{}');
        return;
      }
      const body = 'raw' in b ? b.raw : completion(typeof b.answer === 'string' ? b.answer : JSON.stringify(b.answer));
      const send = () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(body);
      };
      if ('delayMs' in b && b.delayMs) setTimeout(send, b.delayMs);
      else send();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    queue: (...b) => pending.push(...b),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
