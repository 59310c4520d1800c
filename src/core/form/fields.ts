/**
 * The field model: what a requested schema means to a person, independent of
 * how it is drawn. Produced by normalize(), consumed by every renderer and by
 * both validators (host and webview).
 */

export type TextFormat = 'email' | 'uri' | 'date' | 'date-time';

interface FieldBase {
  /** Property name in the answer (in a group, composed: see `property`). */
  name: string;
  /** In a group: the property name in the asker's own schema, where `name` is composed. */
  property?: string;
  /** In a group: the index of the section (FormModel.sections) the field belongs to. */
  section?: number;
  /** The schema's title, or the property name when there is none. */
  label: string;
  description?: string;
  required: boolean;
}

export interface TextField extends FieldBase {
  kind: 'text';
  format?: TextFormat;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  /**
   * A value the field takes, from the schema's `examples` (the first string that
   * meets the field's rules): what a person is shown when their text does not
   * match the pattern and the field has no description.
   */
  example?: string;
  default?: string;
  /**
   * `format: "password"` or `writeOnly: true` (what an agent's own secret mark becomes, src/acp):
   * masked, stored in SecretStorage, never logged or kept in a draft.
   */
  secret: boolean;
  /**
   * The choice field whose "Other…" answer this text is (otherAnswer.ts): drawn
   * inside that question, not as a question of its own, and sent only when
   * "Other…" is chosen.
   */
  otherOf?: string;
}

/**
 * A choice question paired with its own free-text companion, asked as one
 * question with an "Other…" answer (see otherAnswer.ts).
 */
export interface OtherAnswer {
  /** The text field that carries the typed answer. */
  text: string;
  /**
   * The option that means "my own answer": sent with
   * the text, and not listed beside "Other…". Absent when the text alone is the answer.
   */
  option?: string;
}

export interface NumberField extends FieldBase {
  kind: 'number';
  integer: boolean;
  minimum?: number;
  maximum?: number;
  default?: number;
}

export interface BooleanField extends FieldBase {
  kind: 'boolean';
  default?: boolean;
}

export interface ChoiceOption {
  value: string;
  label: string;
  /** The option's own `description` (ACP's enum option): a line beside its label. */
  description?: string;
  /**
   * What the option would look like (claude's AskUserQuestion `preview`: a mockup, code,
   * a comparison, in Markdown): shown as plain text, several lines, beside the option.
   */
  preview?: string;
}

export interface ChoiceField extends FieldBase {
  kind: 'choice';
  options: ChoiceOption[];
  default?: string;
  other?: OtherAnswer;
}

export interface MultiChoiceField extends FieldBase {
  kind: 'multiChoice';
  options: ChoiceOption[];
  minItems?: number;
  maxItems?: number;
  default?: string[];
  other?: OtherAnswer;
}

/**
 * A file the person picks (`x-mcp-file`, draft SEP-2356/SEP-2631, fileFields.ts): sent
 * inline as a data URI, or a list of them when `multiple`. Never drawn as a text box.
 */
export interface FileField extends FieldBase {
  kind: 'file';
  /** Media types (`image/*`, `application/pdf`) or extensions (`.pdf`), lower case; absent: any file. */
  accept?: string[];
  /** Largest file in bytes, as the asker says. */
  maxSize?: number;
  /** An array of files (`items` carries the keyword). */
  multiple: boolean;
  /** What it takes, as a person reads it: "PDF, TXT · at most 1 MB" (fileFields.ts fileRule). */
  rule: string;
  minItems?: number;
  maxItems?: number;
  /** A file field has no default: the person picks every file sent. */
  default?: undefined;
}

export type Field = TextField | NumberField | BooleanField | ChoiceField | MultiChoiceField | FileField;

/** A heading of a grouped form: one of the asker's questions. */
export interface FormSection {
  key: string;
  message: string;
}

export interface FormModel {
  /** In the order the asker listed the properties (and, in a group, section by section). */
  fields: Field[];
  /** Present for several questions answered together; fields name their section by index. */
  sections?: FormSection[];
}

export function hasSecret(form: FormModel): boolean {
  return form.fields.some((field) => field.kind === 'text' && field.secret);
}

export function hasFileField(form: FormModel): boolean {
  return form.fields.some((field) => field.kind === 'file');
}

/**
 * Answered only in the window that asked it: a secret (it never leaves the window) or a
 * file (picked from the editor's own disk, and megabytes to carry).
 */
export function answeredOnlyHere(form: FormModel): boolean {
  return hasSecret(form) || hasFileField(form);
}

/**
 * Secret fields by answer name and by the asker's own property name (they
 * differ in a group): secrets are saved under the property, so a question asked
 * again in another round or burst finds its saved value.
 */
export function secretFields(form: FormModel | undefined): Array<{ name: string; property: string }> {
  return (form?.fields ?? []).filter((f) => f.kind === 'text' && f.secret).map((f) => ({ name: f.name, property: f.property ?? f.name }));
}

export function secretFieldNames(form: FormModel): Set<string> {
  return new Set(form.fields.filter((f) => f.kind === 'text' && f.secret).map((f) => f.name));
}
