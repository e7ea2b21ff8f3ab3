/** A small least-recently-used cache on Map's insertion order. */
export class Lru<K, V> {
  readonly #max: number;
  readonly #map = new Map<K, V>();

  constructor(max: number) {
    this.#max = Math.max(1, max);
  }

  /** The value for `key`, marking it most recently used. */
  get(key: K): V | undefined {
    const v = this.#map.get(key);
    if (v !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, v);
    }
    return v;
  }

  /** Store a value, evicting the least recently used entry when full. */
  set(key: K, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.#max) this.#map.delete(this.#map.keys().next().value!);
  }

  /** Removes `key`; whether it was there. */
  delete(key: K): boolean {
    return this.#map.delete(key);
  }

  get size(): number {
    return this.#map.size;
  }
}
