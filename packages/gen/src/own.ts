/**
 * Sets `key` as an own data property, also when the key is `__proto__`: an assignment
 * (`record[key] = value`) would set the prototype instead, and the key would be lost (a
 * property, a default or a tool id named `__proto__`).
 */
export function setOwn<T>(record: { [key: string]: T }, key: string, value: T): void {
  Object.defineProperty(record, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}
