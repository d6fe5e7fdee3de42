import { type OutputUnit, type Schema, type SchemaDraft, type ValidationResult, Validator } from '@cfworker/json-schema';

/**
 * Whether the model's object follows the caller's JSON Schema. The schema is sent with
 * `strict: false` (callers' schemas rarely fit OpenAI's strict subset) and servers that cannot
 * constrain decoding only read it as text, so the answer is checked here before anyone is charged.
 *
 * The validator interprets the schema (no code generation: the schema is a stranger's). Two
 * keywords are left out of the check: `pattern` and `patternProperties` run the caller's regular
 * expressions over text a web page shaped, and one catastrophic expression would hold the event
 * loop. With `patternProperties` goes `additionalProperties` beside it, which would otherwise
 * refuse the properties those patterns allowed: the check gets looser, never wrong.
 */

/** At most this many violations are named (to the model on the retry, and to the caller). */
const MAX_VIOLATIONS = 5;

/** Errors that only say a child failed; the child's own error says how. */
const WRAPPER_KEYWORDS = new Set(['properties', 'items', 'prefixItems', 'allOf', '$ref', 'dependentSchemas', 'false']);

function draftOf(schema: Record<string, unknown>): SchemaDraft {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('draft-04')) return '4';
  if (declared.includes('draft-07') || declared.includes('draft-06')) return '7';
  if (declared.includes('2019-09')) return '2019-09';
  return '2020-12';
}

/** A copy of `schema` without the regular-expression keywords (a string `pattern` is the keyword, not a property named so). */
function withoutPatterns(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutPatterns);
  if (node === null || typeof node !== 'object') return node;
  const record = node as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  const hasPatternProperties = record.patternProperties !== null && typeof record.patternProperties === 'object';
  for (const [key, value] of Object.entries(record)) {
    if (key === 'pattern' && typeof value === 'string') continue;
    if (hasPatternProperties && (key === 'patternProperties' || key === 'additionalProperties' || key === 'unevaluatedProperties')) continue;
    copy[key] = withoutPatterns(value);
  }
  return copy;
}

function describe(error: OutputUnit): string {
  const where = error.instanceLocation.replace(/^#/, '') || '/';
  return `${where}: ${error.error}`;
}

/**
 * The ways `value` breaks `schema` ("/price: Instance type "string" is invalid. Expected
 * "number"."), empty when it follows it, or undefined when the schema cannot be checked here (a
 * `$ref` to a document we do not have): then the answer is taken as it is.
 */
export function schemaViolations(schema: Record<string, unknown>, value: Record<string, unknown>): string[] | undefined {
  let result: ValidationResult;
  try {
    result = new Validator(withoutPatterns(schema) as Schema, draftOf(schema), false).validate(value);
  } catch {
    return undefined;
  }
  const { errors } = result;
  const specific = errors.filter((error) => !WRAPPER_KEYWORDS.has(error.keyword));
  return (specific.length > 0 ? specific : errors).slice(0, MAX_VIOLATIONS).map(describe);
}
