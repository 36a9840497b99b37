/**
 * Control characters in request text. NUL and the other C0 controls, except tab, line feed and carriage
 * return, are refused wherever a request enters: no platform publishes them, the store refuses NUL, and a
 * caller that sends them has a bug worth hearing about. The gateway applies this to every request it
 * validates; every gRPC server applies it to every incoming message (services call each other, not only
 * the gateway).
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

/** The first refused control character of `text` as U+XXXX, or undefined when there is none. */
export function controlCharacterIn(text: string): string | undefined {
  const found = CONTROL.exec(text);
  return found ? `U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : undefined;
}

// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

/**
 * Text a third party wrote (a platform's error message), made fit to pass on: each refused control character
 * becomes U+FFFD. Only for text no caller typed: a caller's own text is refused instead.
 */
export function withoutControlCharacters(text: string): string {
  return text.replace(CONTROLS, '\uFFFD');
}

/** The rule as the OpenAPI document and the errors state it. */
export const CONTROL_CHARACTER_RULE = 'Text must not contain control characters (U+0000 to U+001F) other than tab, line feed and carriage return';

/** How a walk names a field: its key as the caller spelled it, or renamed (a proto object's camelCase to snake_case). */
export type FieldNamer = (key: string) => string;

const asIs: FieldNamer = (key) => key;

/** camelCase to snake_case: proto objects (ts-proto) name fields in camelCase, the public contract in snake_case. */
export const snakeCase: FieldNamer = (key) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

const MAX_PROBLEMS = 20;

/**
 * One problem per string (or object key) holding a refused control character, each naming its field
 * (`post.post_contents[0].body: ...`). Walks plain objects and arrays of any depth; binary values
 * (Buffer, typed arrays) and other non-plain objects are left alone.
 */
export function controlCharacterProblems(value: unknown, name: FieldNamer = asIs, where = ''): string[] {
  const problems: string[] = [];
  // Iterative (a deeply nested body must not overflow the stack); an entry is a value and its path, or a problem found
  // in a field name, kept in place so that problems come in the order of the fields.
  const stack: Array<[unknown, string] | string> = [[value, where]];
  while (stack.length && problems.length < MAX_PROBLEMS) {
    const entry = stack.pop()!;
    if (typeof entry === 'string') {
      problems.push(entry);
      continue;
    }
    const [current, path] = entry;
    if (typeof current === 'string') {
      const found = controlCharacterIn(current);
      if (found) problems.push(`${path || 'value'}: contains the control character ${found}; only tab, line feed and carriage return are allowed`);
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push([current[i], `${path}[${i}]`]);
      continue;
    }
    const proto = Object.getPrototypeOf(current) as unknown;
    if (proto !== Object.prototype && proto !== null) continue;
    const entries = Object.entries(current as Record<string, unknown>);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, v] = entries[i]!;
      const inKey = controlCharacterIn(key);
      stack.push(inKey ? `${path || 'value'}: a field name contains the control character ${inKey}` : [v, path ? `${path}.${name(key)}` : name(key)]);
    }
  }
  return problems;
}
