/**
 * The fields of a guard rule file, of a rule, and of the shared definitions file (_lists.json):
 * what each means and what its value looks like, for the loader's list of known fields, the JSON
 * schema (scripts/gen-guard-schema.mjs) and docs/guard-rules.md. The matcher under `match` is
 * match-fields.ts. The loader (load-rules.ts) checks every value itself, naming file, rule and field.
 */
import type { JsonSchema } from './rule-types.js';

export interface FileField {
  doc: string;
  schema: JsonSchema;
  required: boolean;
}

/** A rule id: `category/name`, lowercase words joined by `-`. */
export const RULE_ID = /^[a-z0-9]+(-[a-z0-9]+)*\/[a-z0-9]+(-[a-z0-9]+)*$/;
/** A MITRE ATT&CK technique id: `T` and four digits, with an optional `.` and three-digit sub-technique. */
export const ATTACK_ID = /^T\d{4}(\.\d{3})?$/;
/** A category name (the built-in ten, or any such name in a user's rule file). */
export const CATEGORY_NAME = /^[a-z0-9-]+$/;

const ONE_LINE: JsonSchema = { type: 'string', minLength: 1, pattern: '^[^\\n]*$' };
const EDITOR_SCHEMA: FileField = {
  doc: 'The JSON schema editors check the file against (ignored by the loader).',
  schema: { type: 'string' },
  required: false,
};

/** A rule file: `{ "category": …, "rules": [ … ] }`. */
export const RULE_FILE_FIELDS: Readonly<Record<string, FileField>> = {
  $schema: EDITOR_SCHEMA,
  category: {
    doc: 'The category of every rule in the file: one of the built-in categories (GUARD_CATEGORIES) for rules/builtin/, any lowercase name in a user file.',
    schema: { type: 'string', pattern: CATEGORY_NAME.source },
    required: true,
  },
  rules: { doc: 'The rules, in the order their findings are reported.', schema: { type: 'array', items: { $ref: '#/definitions/rule' } }, required: true },
};

/** One rule. The order is the one the loader's error message lists. */
export const RULE_FIELDS: Readonly<Record<string, FileField>> = {
  id: {
    doc: '`category/name`, stable: findings, allow rules and `shellgate rules ID` refer to it.',
    schema: { type: 'string', pattern: RULE_ID.source },
    required: true,
  },
  level: { doc: 'What a match decides: `deny`, or `ask` the user.', schema: { enum: ['deny', 'ask'] }, required: true },
  message: { doc: 'One line that teaches what is dangerous here (shown with the decision).', schema: ONE_LINE, required: true },
  rationale: { doc: 'Why the rule exists, for `shellgate rules ID`.', schema: { type: 'string', minLength: 1 }, required: true },
  attack: {
    doc: 'The MITRE ATT&CK technique ids the rule detects (`["T1053.003"]`); findings carry them. Required for built-in rules.',
    schema: { type: 'array', items: { type: 'string', pattern: ATTACK_ID.source }, minItems: 1, uniqueItems: true },
    required: false,
  },
  safer: { doc: 'A safer way to get the same work done, told to the agent with the decision.', schema: ONE_LINE, required: false },
  match: {
    doc: 'The matcher: every field given must hold for the command (see the matcher fields).',
    schema: { $ref: '#/definitions/matcher' },
    required: true,
  },
  examples: {
    doc: 'Commands the rule must match (`match`) and must not (`noMatch`); a test runs every one.',
    schema: {
      type: 'object',
      properties: { match: { type: 'array', items: { type: 'string' } }, noMatch: { type: 'array', items: { type: 'string' } } },
      required: ['match', 'noMatch'],
      additionalProperties: false,
    },
    required: true,
  },
};

/** rules/builtin/_lists.json: shared lists and macros. */
export const LISTS_FILE_FIELDS: Readonly<Record<string, FileField>> = {
  $schema: EDITOR_SCHEMA,
  lists: {
    doc: 'Named lists of strings; `"@name"` in a field that takes names stands for the list.',
    schema: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
    required: true,
  },
  macros: {
    doc: 'Named matchers, used as `{ "macro": "name" }`.',
    schema: { type: 'object', additionalProperties: { $ref: '#/definitions/matcher' } },
    required: true,
  },
};
