/** bash-parser's tree: only the fields the adapter reads (the package ships no types). */

interface BPPoint {
  char: number;
}
interface BPLoc {
  start: BPPoint;
  end: BPPoint;
}
export interface BPNode {
  type: string;
  loc?: BPLoc;
  text?: string;
  commands?: BPNode[];
  async?: boolean;
  bang?: boolean;
  /** 'and' / 'or' on LogicalExpression; the operator token on Redirect. */
  op?: string | BPNode;
  left?: BPNode;
  right?: BPNode;
  name?: BPNode;
  prefix?: BPNode[];
  suffix?: BPNode[];
  list?: BPNode;
  body?: BPNode;
  redirections?: BPNode[];
  clause?: BPNode;
  then?: BPNode;
  else?: BPNode;
  wordlist?: BPNode[];
  do?: BPNode;
  cases?: BPNode[];
  pattern?: BPNode[];
  file?: BPNode;
  numberIo?: BPNode;
  /** Set when bash-parser split one word into fields (it splits on NUL characters). */
  fieldIdx?: number;
}

/** bash-parser threw somewhere (also inside a substitution body): the whole parse is null. */
export class ParseFailure extends Error {}
