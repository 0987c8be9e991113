// The API's router: Hono's TrieRouter, with its answer remembered per path SHAPE (issue 40, row B1).
// hono's RegExpRouter, the fast one, refuses the route table (GET /missions/:id beside the static GET
// /missions/nearby); the TrieRouter walks the tree on every request and builds ~2 KB of arrays to answer.
// A path's shape is the path with every segment no route spells replaced by a placeholder: two paths of
// one shape walk the same nodes of the tree (an unspelled segment meets no literal child, and every plain
// `:name` or `*` child takes it), so they match the same handlers in the same order, their parameters
// read from the same positions. The first match of a shape is the TrieRouter's own; later ones are
// rebuilt from it. Any route the argument does not cover (a `:name{regex}`, an optional `:name?`, a
// `prefix*` segment) turns the memo off: every match is then the TrieRouter's.
import type { Result, Router } from "hono/router";
import { TrieRouter } from "hono/router/trie-router";

/** One matched handler of a shape: its parameters' names and the path segment each is read from. */
type Slot<T> = { handler: T; names: string[]; at: number[] };

/** Shapes remembered at most (a shape per method, route and depth: the API has a few hundred). */
const MAX_SHAPES = 2000;
/** Deeper paths are not remembered (their shapes are many and rare). */
const MAX_SEGMENTS = 10;

export class ShapeRouter<T> implements Router<T> {
  readonly name = "ShapeRouter";
  readonly #trie = new TrieRouter<T>();
  /** Every segment a route spells (`:id` and `*` as written): a request segment equal to one keeps its place in the shape. */
  readonly #spelled = new Set<string>();
  #plain = true;
  readonly #shapes = new Map<string, Slot<T>[]>();

  add(method: string, path: string, handler: T): void {
    this.#trie.add(method, path, handler);
    for (const s of path.split("/")) {
      this.#spelled.add(s);
      if (/[{}?]/.test(s) || (s.includes("*") && s !== "*")) this.#plain = false;
    }
    this.#shapes.clear();
  }

  match(method: string, path: string): Result<T> {
    if (!this.#plain) return this.#trie.match(method, path);
    const parts = path.split("/");
    if (parts.length > MAX_SEGMENTS) return this.#trie.match(method, path);
    let shape = method;
    for (const p of parts) shape += this.#spelled.has(p) ? `/${p}` : "/\u0000";
    const slots = this.#shapes.get(shape);
    if (slots !== undefined) return [slots.map((s) => [s.handler, paramsOf(s, parts)])] as Result<T>;
    const result = this.#trie.match(method, path);
    if (this.#shapes.size < MAX_SHAPES) {
      const learnt = slotsOf(result, parts);
      if (learnt) this.#shapes.set(shape, learnt);
    }
    return result;
  }
}

function paramsOf<T>(s: Slot<T>, parts: readonly string[]): Record<string, string | undefined> {
  const params = Object.create(null) as Record<string, string | undefined>;
  for (let i = 0; i < s.names.length; i++) params[s.names[i]!] = s.at[i]! < 0 ? undefined : parts[s.at[i]!];
  return params;
}

/** The shape's slots from the TrieRouter's answer; null when a parameter's segment is not unambiguous. */
function slotsOf<T>(result: Result<T>, parts: readonly string[]): Slot<T>[] | null {
  if (result[1] !== undefined) return null; // (a TrieRouter answers with the parameters inline)
  const slots: Slot<T>[] = [];
  for (const [handler, params] of result[0] as [T, Record<string, string | undefined>][]) {
    const names: string[] = [];
    const at: number[] = [];
    for (const name in params) {
      const v = params[name];
      let found = -1;
      if (v !== undefined) {
        for (let i = 0; i < parts.length; i++) {
          if (parts[i] !== v) continue;
          if (found >= 0) return null;
          found = i;
        }
        if (found < 0) return null;
      }
      names.push(name);
      at.push(found);
    }
    slots.push({ handler, names, at });
  }
  return slots;
}
