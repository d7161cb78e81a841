// Events from Go can arrive out of order; Orderer puts them back in order.
/** Orderer puts events back in seq order per key (a chat, a terminal
 * attachment): Wails' dev server delivers every event on its own goroutine, so
 * they can arrive shuffled. An event after a gap waits until the gap fills,
 * or GAP_MS passes. One that comes after its gap was given up on (or a
 * duplicate) goes to late, not deliver: a busy machine can hold a goroutine
 * longer than GAP_MS, and a consumer whose state is "the newest wins" (the
 * chat's context meter) still wants it. */
export const GAP_MS = 400;
export class Orderer<T extends { seq: number; from?: number }> {
  private last = new Map<string, number>();
  private held = new Map<string, Map<number, T>>();
  constructor(
    private key: (ev: T) => string,
    private deliver: (ev: T) => void,
    private schedule: (fn: () => void) => unknown = (fn) => setTimeout(fn, GAP_MS),
    private late: (ev: T) => void = () => {},
  ) {}

  push(ev: T): void {
    const k = this.key(ev);
    const last = this.last.get(k);
    if (last !== undefined && ev.seq <= last) { // a duplicate or a late one already skipped
      this.late(ev);
      return;
    }
    // A joined event (streamed pieces sent as one) stands for from…seq.
    const first = ev.from || ev.seq;
    if (last === undefined || first === last + 1) {
      this.apply(k, ev);
      this.drain(k);
      return;
    }
    const held = this.held.get(k) ?? new Map<number, T>();
    held.set(first, ev);
    this.held.set(k, held);
    this.schedule(() => this.flush(k));
  }

  private apply(k: string, ev: T) {
    this.last.set(k, ev.seq);
    this.deliver(ev);
  }

  private drain(k: string) {
    const held = this.held.get(k);
    for (let next = (this.last.get(k) ?? 0) + 1; held?.has(next); next++) {
      const ev = held.get(next)!;
      held.delete(next);
      this.apply(k, ev);
      next = ev.seq;
    }
  }

  /** flush gives up on a gap that did not fill: held events go out in order. */
  private flush(k: string) {
    const held = this.held.get(k);
    if (!held || held.size === 0) return;
    for (const first of [...held.keys()].sort((a, b) => a - b)) {
      const ev = held.get(first)!;
      held.delete(first);
      if (ev.seq > (this.last.get(k) ?? 0)) this.apply(k, ev);
    }
  }
}
