/**
 * Objects keyed by a user's names (fields, portals, layouts) meet names like `__proto__`: `out[name] = value`
 * would change the prototype instead and the name would be lost. Every such write goes through here.
 */

/** `out[name] = value`, except that "__proto__" becomes an own data property rather than the prototype. */
export function setOwn<T>(out: Record<string, T>, name: string, value: T): void {
  if (name === "__proto__") Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  else out[name] = value;
}

/** `object[name]` if it is the object's own property (never an inherited member such as `constructor`). */
export function getOwn(object: object, name: string): unknown {
  return Object.hasOwn(object, name) ? (object as Record<string, unknown>)[name] : undefined;
}
