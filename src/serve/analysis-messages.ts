/** The messages between the server's main thread and its analysis threads (types only). */
import type { AgentProfile, HookAnswer } from '../agents/types.js';
import type { AuditRecord } from '../audit/types.js';
import type { PolicyOptions, ServeRequest } from './protocol.js';

/** What a thread needs to build the decider the main thread would have built. */
export interface WorkerSetup {
  policy: PolicyOptions;
  version: string;
  home: string;
  /** Post each decision's record back (an audit log is open). */
  audit: boolean;
}

export type RequestFrom = Omit<ServeRequest, 'agent' | 'input'>;

export type ToWorker = { type: 'decide'; id: number; agent: string; input: string; from: RequestFrom } | { type: 'reload'; id: number };

/** A decision as the transports use it: the answer, and for a blocking one its reason and tool. */
export type ServeDecision = { answer: HookAnswer; block?: { reason: string; tool: string } } | { refused: string };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | ({ type: 'decided'; id: number } & ServeDecision)
  | { type: 'reloaded'; id: number; errors: string[] }
  | { type: 'record'; record: AuditRecord }
  | { type: 'files'; files: string[] };

/** What the transports ask: the agent a request names, and a decision (made in the pool). */
export interface Decisions {
  /** The agent's profile, or why there is none. */
  agentOf(id: string): AgentProfile | string;
  decide(agent: AgentProfile, input: string, from: RequestFrom): Promise<ServeDecision>;
}
