/**
 * A read-only, memoised view of a web-tree-sitter node. Every getter of web-tree-sitter's Node
 * copies the node into WASM memory and calls into WASM; the converter asks a node's type about
 * four times and its end twice, so reading each fact once saves most of the conversion time.
 * Children are read in bulk (one WASM call for all of them) instead of one `child(i)` at a time,
 * which also keeps a command with 100,000 words linear. Field names of many children are read
 * with one cursor pass, for the same reason.
 *
 * Only the members the converter uses exist. A view lives as long as its tree: the parser
 * converts, then deletes the tree, and never lets a view escape.
 */
import type { Node as RawNode } from 'web-tree-sitter';

/** Above this many children, field names are read with a cursor in one pass. */
const CURSOR_FIELDS_FROM = 16;

export class TSNode {
  private _type: string | undefined;
  private _end: number | undefined;
  private _text: string | undefined;
  private _named: boolean | undefined;
  private _children: TSNode[] | undefined;
  private _fields: (string | null)[] | undefined;
  readonly startIndex: number;

  constructor(
    private readonly raw: RawNode,
    readonly parent: TSNode | null,
    /** Index among the parent's children. */
    private readonly index: number,
    /**
     * The text offsets point into. It may differ from the text tree-sitter parsed, which can be a
     * masked copy of the same length (see repairs.ts): node text always comes from the original.
     */
    private readonly source: string,
  ) {
    this.startIndex = raw.startIndex;
  }

  get type(): string {
    return (this._type ??= this.raw.type);
  }

  get endIndex(): number {
    return (this._end ??= this.raw.endIndex);
  }

  get text(): string {
    return (this._text ??= this.source.slice(this.startIndex, this.endIndex));
  }

  get isNamed(): boolean {
    return (this._named ??= this.raw.isNamed);
  }

  get isMissing(): boolean {
    return this.raw.isMissing;
  }

  get hasError(): boolean {
    return this.raw.hasError;
  }

  get children(): TSNode[] {
    if (this._children === undefined) {
      const raw = this.raw.children;
      const out = new Array<TSNode>(raw.length);
      for (let i = 0; i < raw.length; i++) out[i] = new TSNode(raw[i]!, this, i, this.source);
      this._children = out;
    }
    return this._children;
  }

  get childCount(): number {
    return this.children.length;
  }

  child(i: number): TSNode | null {
    return this.children[i] ?? null;
  }

  get namedChildren(): TSNode[] {
    return this.children.filter((c) => c.isNamed);
  }

  get namedChildCount(): number {
    let n = 0;
    for (const c of this.children) if (c.isNamed) n++;
    return n;
  }

  namedChild(i: number): TSNode | null {
    let k = 0;
    for (const c of this.children) {
      if (!c.isNamed) continue;
      if (k === i) return c;
      k++;
    }
    return null;
  }

  get nextSibling(): TSNode | null {
    if (this.index < 0) return this.raw.nextSibling === null ? null : new TSNode(this.raw.nextSibling, null, -1, this.source);
    return this.parent?.children[this.index + 1] ?? null;
  }

  get previousSibling(): TSNode | null {
    if (this.index < 0) return this.raw.previousSibling === null ? null : new TSNode(this.raw.previousSibling, null, -1, this.source);
    return this.index > 0 ? (this.parent?.children[this.index - 1] ?? null) : null;
  }

  fieldNameForChild(i: number): string | null {
    if (this._fields === undefined) {
      const count = this.children.length;
      if (count < CURSOR_FIELDS_FROM) {
        if (i < 0 || i >= count) return null;
        return this.raw.fieldNameForChild(i);
      }
      this._fields = this.readFields(count);
    }
    return this._fields[i] ?? null;
  }

  childForFieldName(name: string): TSNode | null {
    const raw = this.raw.childForFieldName(name);
    return raw === null ? null : this.viewOf(raw);
  }

  childrenForFieldName(name: string): TSNode[] {
    return this.raw.childrenForFieldName(name).flatMap((r) => (r === null ? [] : [this.viewOf(r)]));
  }

  /** Our view of one of our raw children (same node id), so memoised facts are shared. */
  private viewOf(raw: RawNode): TSNode {
    return this.children.find((c) => c.raw.id === raw.id) ?? new TSNode(raw, null, -1, this.source);
  }

  private readFields(count: number): (string | null)[] {
    const fields = new Array<string | null>(count).fill(null);
    const cursor = this.raw.walk();
    try {
      if (!cursor.gotoFirstChild()) return fields;
      let i = 0;
      do fields[i++] = cursor.currentFieldName;
      while (i < count && cursor.gotoNextSibling());
    } finally {
      cursor.delete();
    }
    return fields;
  }
}
