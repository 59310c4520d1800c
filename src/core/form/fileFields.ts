/**
 * File fields (draft SEP-2356, continued by SEP-2631 "File Objects and Transfer"):
 * a string property marked `x-mcp-file` (`accept`, `maxSize`) is answered with a
 * file the person picks, sent inline as an RFC 2397 data URI:
 *
 *   data:<media type>;name=<percent-encoded name>;base64,<bytes>
 *
 * Pure: the picking and reading are the editor's (src/vscode/questions/chooseFiles.ts). Here are the
 * rules both sides share: what the keyword says, which files it accepts, how a
 * file becomes a value, and the check of a value before it leaves, which reads
 * only the value's head and its length (a value may be megabytes).
 */
import { oneLine } from '../display';
import type { FileField } from './fields';

/** The schema keyword that marks a file field. */
export const FILE_KEYWORD = 'x-mcp-file';

/**
 * The most Elicit sends inline, per answer, whatever a field's `maxSize` allows:
 * a file is read into the extension host and sent in one JSON message.
 */
export const MAX_INLINE_FILE_BYTES = 16 * 1024 * 1024;

/** Beyond these a field's `accept` list is refused: nobody reads a longer one. */
const MAX_ACCEPT_ENTRIES = 50;
const MAX_ACCEPT_LENGTH = 100;
/** A data URI's head (`data:…;base64,`) longer than this is not one Elicit made. */
const MAX_HEAD_LENGTH = 1_200;

/** What the keyword says, read by normalize(); an error is a sentence about the schema. */
export function readFileKeyword(value: unknown): { accept?: string[]; maxSize?: number } | { error: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: `${FILE_KEYWORD} must be an object` };
  const keyword = value as Record<string, unknown>;
  const read: { accept?: string[]; maxSize?: number } = {};
  if (keyword.accept !== undefined) {
    const accept = keyword.accept;
    if (!Array.isArray(accept) || !accept.every((a) => typeof a === 'string' && a.trim() !== '' && a.length <= MAX_ACCEPT_LENGTH)) {
      return { error: `${FILE_KEYWORD}.accept must be a list of media types or file extensions` };
    }
    if (accept.length > MAX_ACCEPT_ENTRIES) return { error: `${FILE_KEYWORD}.accept lists more than ${MAX_ACCEPT_ENTRIES} types` };
    if (accept.length > 0) read.accept = accept.map((a: string) => a.trim().toLowerCase());
  }
  if (keyword.maxSize !== undefined) {
    const max = keyword.maxSize;
    if (typeof max !== 'number' || !Number.isInteger(max) || max < 1)
      return { error: `${FILE_KEYWORD}.maxSize must be a whole number of bytes` };
    read.maxSize = max;
  }
  // SEP-2631: a field may allow only an out-of-band upload, which Elicit does not do (see CONTRIBUTING).
  const modes = keyword.transferModes;
  if (modes !== undefined && (!Array.isArray(modes) || !modes.includes('inline'))) {
    return { error: `${FILE_KEYWORD}.transferModes does not allow "inline"; Elicit sends files inline, as data: URIs` };
  }
  return read;
}

/** Common file extensions and their media types: how a picked file's type is told, and `accept` becomes dialog filters. */
const MEDIA_TYPES: Readonly<Record<string, string>> = {
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ts: 'text/x-typescript',
  py: 'text/x-python',
  json: 'application/json',
  xml: 'application/xml',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  toml: 'application/toml',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  tar: 'application/x-tar',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  bmp: 'image/bmp',
  ico: 'image/vnd.microsoft.icon',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  mid: 'audio/midi',
  midi: 'audio/midi',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
};

export const UNKNOWN_MEDIA_TYPE = 'application/octet-stream';

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** A file's media type, told by its extension. */
export function mediaTypeOf(name: string): string {
  return MEDIA_TYPES[extensionOf(name)] ?? UNKNOWN_MEDIA_TYPE;
}

/** Whether a file (its name and media type) is one the field accepts: `.ext`, `type/*`, `type/subtype`. */
export function accepts(field: Pick<FileField, 'accept'>, name: string, mediaType: string): boolean {
  if (!field.accept) return true;
  const type = mediaType.toLowerCase();
  const extension = `.${extensionOf(name)}`;
  return field.accept.some((entry) => {
    if (entry === '*' || entry === '*/*') return true;
    if (entry.startsWith('.')) return entry === extension;
    if (entry.endsWith('/*')) return type.startsWith(entry.slice(0, -1));
    return entry === type;
  });
}

/**
 * The file dialog's filters for a field's `accept` (VS Code's `showOpenDialog`):
 * one filter of the extensions it names; none when it accepts anything or names a
 * type whose extensions are not known here (the check after the pick still holds).
 */
export function dialogFilters(field: Pick<FileField, 'accept'>): Record<string, string[]> | undefined {
  if (!field.accept) return undefined;
  const extensions = new Set<string>();
  for (const entry of field.accept) {
    if (entry === '*' || entry === '*/*') return undefined;
    if (entry.startsWith('.')) {
      extensions.add(entry.slice(1));
      continue;
    }
    const known = Object.entries(MEDIA_TYPES).filter(([, type]) =>
      entry.endsWith('/*') ? type.startsWith(entry.slice(0, -1)) : type === entry,
    );
    if (known.length === 0) return undefined;
    for (const [extension] of known) extensions.add(extension);
  }
  return { [acceptText(field)]: [...extensions] };
}

/** The accepted types as a person reads them: "PDF, images". */
export function acceptText(field: Pick<FileField, 'accept'>): string {
  if (!field.accept) return 'Any file';
  const words = field.accept.map((entry) => {
    if (entry.startsWith('.')) return entry.slice(1).toUpperCase();
    if (entry.endsWith('/*')) return `${entry.slice(0, -2)} files`;
    const extension = Object.entries(MEDIA_TYPES).find(([, type]) => type === entry)?.[0];
    return extension ? extension.toUpperCase() : entry;
  });
  return oneLine([...new Set(words)].join(', '), 120);
}

/** What a field takes, in a line: "PDF · at most 5 MB". */
export function fileRule(field: Omit<FileField, 'rule'>): string {
  const parts = [acceptText(field), `at most ${formatBytes(largestFile(field))}`];
  if (field.multiple) {
    const { minItems: min, maxItems: max } = field;
    if (min !== undefined && max !== undefined) parts.push(min === max ? `${min} files` : `${min} to ${max} files`);
    else if (min !== undefined && min > 0) parts.push(`at least ${min} files`);
    else if (max !== undefined) parts.push(`at most ${max} files`);
  }
  return parts.join(' · ');
}

/** The largest file the field takes: its `maxSize`, never more than Elicit sends inline. */
export function largestFile(field: Pick<FileField, 'maxSize'>): number {
  return Math.min(field.maxSize ?? MAX_INLINE_FILE_BYTES, MAX_INLINE_FILE_BYTES);
}

/** "12.3 KB": sizes as a person reads them (1 KB = 1,024 bytes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 100 || Number.isInteger(value) ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/**
 * Why a picked file cannot answer the field, from what is known before it is read
 * (its name and size), or undefined when it can.
 */
export function fileProblem(field: FileField, name: string, size: number, mediaType = mediaTypeOf(name)): string | undefined {
  const shown = oneLine(name, 80);
  const largest = largestFile(field);
  if (size > largest) {
    const whose = field.maxSize !== undefined && field.maxSize <= MAX_INLINE_FILE_BYTES ? 'this field takes' : 'Elicit sends';
    return `${shown} is ${formatBytes(size)}; ${whose} at most ${formatBytes(largest)}`;
  }
  if (!accepts(field, name, mediaType)) return `${shown} is not one of the accepted types (${acceptText(field)})`;
  return undefined;
}

/**
 * RFC 3986 percent-encoding of a file name for the `name=` parameter: as
 * encodeURIComponent, and also `! ' ( ) *`, which the SEP's examples encode.
 */
function encodeName(name: string): string {
  return encodeURIComponent(name).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A file's bytes (base64) as the field's value. */
export function toDataUri(name: string, mediaType: string, base64: string): string {
  return `data:${mediaType};name=${encodeName(name)};base64,${base64}`;
}

/** What a data URI value says about its file, read from its head and length only. */
export interface DataUriFile {
  mediaType: string;
  name?: string;
  size: number;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A data URI's file, or undefined when the value is not a base64 data URI. */
export function readDataUri(value: string): DataUriFile | undefined {
  if (!value.startsWith('data:')) return undefined;
  const comma = value.indexOf(',', 5);
  if (comma < 0 || comma > MAX_HEAD_LENGTH) return undefined;
  const params = value.slice(5, comma).split(';');
  if (params.pop() !== 'base64') return undefined;
  const mediaType = (params.shift() || 'text/plain').toLowerCase();
  if (!/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(mediaType)) return undefined;
  const payload = value.length - comma - 1;
  if (payload % 4 !== 0) return undefined;
  // Its ends only: a file value is made by the host itself from the file read (never taken from a
  // page, a phone or another window), and a pass over 20 MB of it would hold the host for ~40 ms.
  const data = value.slice(comma + 1);
  if (!BASE64.test(data.slice(0, 64)) || !BASE64.test(data.slice(-64))) return undefined;
  const padding = value.endsWith('==') ? 2 : value.endsWith('=') ? 1 : 0;
  const file: DataUriFile = { mediaType, size: (payload / 4) * 3 - padding };
  for (const param of params) {
    if (!param.startsWith('name=')) continue;
    try {
      file.name = decodeURIComponent(param.slice(5));
    } catch {
      return undefined;
    }
  }
  return file;
}

/** The base64 length of a file of `bytes` bytes. */
function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

/** The problem with a file field's value (a data URI, or a list of them), or undefined. */
export function checkFileValue(field: FileField, value: unknown): string | undefined {
  const values = field.multiple ? value : [value];
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'string')) {
    return field.multiple ? 'Must be a list of files' : 'Must be a file';
  }
  // How many there are is the field rules' (checkField), which run first (validateAnswer).
  // Everything sent inline together stays within the inline limit: measured before anything is read.
  const total = values.reduce((sum, v) => sum + v.length, 0);
  if (total > base64Length(MAX_INLINE_FILE_BYTES) + MAX_HEAD_LENGTH * values.length) {
    return `The files are larger than the ${formatBytes(MAX_INLINE_FILE_BYTES)} Elicit sends at once`;
  }
  for (const v of values) {
    if (v.length > base64Length(largestFile(field)) + MAX_HEAD_LENGTH) return `A file is larger than ${formatBytes(largestFile(field))}`;
    const file = readDataUri(v);
    if (!file) return 'Must be a file chosen with Choose File…';
    const problem = fileProblem(field, file.name ?? 'The file', file.size, file.mediaType);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** A file value as a person reads it in the history and earlier answers: "report.pdf (12.3 KB)", never its bytes. */
export function fileValueText(value: unknown): string {
  const values = Array.isArray(value) ? value : [value];
  return values
    .map((v) => {
      const file = typeof v === 'string' ? readDataUri(v) : undefined;
      if (!file) return '(a file)';
      return `${oneLine(file.name ?? 'file', 80)} (${formatBytes(file.size)})`;
    })
    .join(', ');
}
