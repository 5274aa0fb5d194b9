/** Own properties from input: a key `__proto__` is data, never the prototype. */

/** Sets `key` as an own property, even `__proto__` (which `=` would take as the prototype). */
export function setOwn<T>(record: { [key: string]: T }, key: string, value: T): void {
  if (key === "__proto__")
    Object.defineProperty(record, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else record[key] = value;
}
