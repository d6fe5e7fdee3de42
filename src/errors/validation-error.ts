import type { ZodError } from 'zod';
import { AppError } from './app-error.js';

/** Name reported as `error.name`: the class of the validation error, as the spec asks. */
export const VALIDATION_ERROR_NAME = 'ZodError';

export interface ValidationIssue {
  code: string;
  path: (string | number)[];
  message: string;
  expected?: string;
  received?: string;
}

/**
 * The type of a value as the spec's `received` names it: the wording of the validation
 * library whose error bodies the spec quotes (Zod 3's parsed types), so `42` and `4.2` are
 * both `number`, and `nan` is the one number it names apart.
 */
export function receivedTypeOf(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isNaN(value) ? 'nan' : 'number';
  if (value instanceof Date) return 'date';
  return typeof value;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/**
 * Zod 4 words its issues differently from the spec (Zod 3's shape). This is the one place they
 * are mapped: one issue per offending field, `Required` for a missing one, `expected` and
 * `received` for type errors, and schema-specific messages (`Plan is required`) kept.
 */
export function toSpecIssues(error: ZodError, input: unknown): ValidationIssue[] {
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const issue of error.issues) {
    const path = issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key));
    const pathKey = JSON.stringify(path);
    if (seen.has(pathKey)) continue;
    seen.add(pathKey);
    const received = valueAt(input, issue.path);
    if (received === undefined && issue.path.length > 0) {
      // Zod 3 (the spec's wording) reports any missing field as invalid_type / Required.
      issues.push({
        code: 'invalid_type',
        path,
        message: isDefaultMessage(issue.message) ? 'Required' : issue.message,
        expected: expectedOf(issue),
        received: 'undefined',
      });
    } else if (issue.code === 'invalid_type') {
      issues.push({ code: issue.code, path, message: issue.message, expected: issue.expected, received: receivedTypeOf(received) });
    } else {
      issues.push({ code: issue.code, path, message: issue.message });
    }
  }
  return issues;
}

function isDefaultMessage(message: string): boolean {
  return message === 'Required' || message.startsWith('Invalid');
}

function expectedOf(issue: ZodError['issues'][number]): string {
  if (issue.code === 'invalid_type') return issue.expected;
  if (issue.code === 'invalid_value') return issue.values.map((value) => JSON.stringify(value).replaceAll('"', "'")).join(' | ');
  return 'unknown';
}

/** A 422 found after the schema passed (a selector Chromium rejects, a size over a bound), in the same body. */
export function validationError(issues: ValidationIssue[], cause?: unknown): AppError {
  return new AppError('VALIDATION_ERROR', validationMessage(issues), { cause, details: { name: VALIDATION_ERROR_NAME, issues } });
}

export function validationMessage(issues: ValidationIssue[]): string {
  return `Invalid request: ${issues.map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`).join('; ')}`;
}
