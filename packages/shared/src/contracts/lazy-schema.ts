/**
 * A contract's schema, built the first time something uses it (decision 0130).
 *
 * zod builds a schema object for every `z.object(...)`, `.optional()` and `.extend(...)`, about
 * 45 µs each on a first build: the contracts' 220-odd top-level schemas cost 36-45 ms of the web
 * app's longest task (the evaluation of its entry's modules) on a slow host, although a first view
 * parses only a handful of them. Wrapped, a module's evaluation builds nothing; each schema is built
 * once, on its first use, with the schemas it names.
 *
 * The schema stands behind a Proxy that forwards reading a property, `in` and the prototype, which
 * is all zod's API (`parse`, `safeParse`, `extend`, `optional`, `instanceof`, `_zod`) and
 * `z.infer` need; the type is the built schema's own. Listing its own keys (`Object.keys`, spread)
 * sees nothing: no caller lists a schema's keys (a shape is read as `schema.shape`).
 */
export function lazySchema<Schema extends object>(build: () => Schema): Schema {
  let built: Schema | undefined;
  const schema = () => (built ??= build());
  return new Proxy({} as Schema, {
    get: (_target, key) => {
      const target = schema();
      return Reflect.get(target, key, target);
    },
    has: (_target, key) => Reflect.has(schema(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  });
}
