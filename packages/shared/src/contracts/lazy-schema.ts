/**
 * A contract's schema, built the first time something uses it (decision 0130).
 *
 * zod builds a schema object for every `z.object(...)`, `.optional()` and `.extend(...)`, about
 * 45 µs each on a first build: the contracts' 220-odd top-level schemas cost 36-45 ms of the web
 * app's longest task (the evaluation of its entry's modules) on a slow host, although a first view
 * parses only a handful of them. Wrapped, a module's evaluation builds nothing; each schema is built
 * once, on its first use, with the schemas it names.
 *
 * In a browser the schema stands behind a Proxy that forwards reading a property, `in` and the
 * prototype, which is all that parsing and zod's API (`parse`, `safeParse`, `extend`, `optional`,
 * `instanceof`, `_zod`) and `z.infer` need; the type is the built schema's own. Listing its own
 * keys (`Object.keys`, spread) sees nothing: no caller lists a schema's keys (a shape is read as
 * `schema.shape`).
 */
export function lazySchema<Schema extends object>(build: () => Schema): Schema {
  return IN_A_BROWSER ? builtOnFirstUse(build) : build();
}

/**
 * Only in a browser. The server builds every schema as its module loads, as before: it compiles
 * its response serializers from the schemas with `z.toJSONSchema` (http/fast-serializer.ts), which
 * keeps track of the schemas it has walked by object identity, and a stand-in is not the schema its
 * own methods know (an optional member of an object failed the walk). Its start is not a first view.
 */
const IN_A_BROWSER = 'document' in globalThis;

function builtOnFirstUse<Schema extends object>(build: () => Schema): Schema {
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
