// Checking parsed JSON so that every fault names its place: the error a tokenizer file's fault
// raises (TokenizerFileError), JSON paths (field), what a value is (describe) and the Checker
// that gets a member or fails naming it. No I/O: file_reader.mjs reads, the checks use these.

export const MAX_ID = 2 ** 32;

/** A tokenizer file that cannot be read: `file`, `where` (a JSON path, or null) and `problem`. */
export class TokenizerFileError extends Error {
  constructor(file, where, problem) {
    super(where ? `${file}: ${where}: ${problem}` : `${file}: ${problem}`);
    this.name = 'TokenizerFileError';
    this.file = file;
    this.where = where;
    this.problem = problem;
  }
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const shown = (s) => { const q = JSON.stringify(s); return q.length <= 60 ? q : `${q.slice(0, 56)}..."`; };
export const field = (path, name) => (NAME.test(name) ? `${path}.${name}` : `${path}[${shown(name)}]`);
export const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
// spec 14.1: an integer member is a whole number however written (JSON.parse reads 5.0 as 5)
export const isId = (v) => Number.isInteger(v) && v >= 0 && v < MAX_ID;
export function describe(v) {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return JSON.stringify(v);
  if (typeof v === 'number') return `the number ${v}`;
  if (typeof v === 'string') return `the string ${shown(v)}`;
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  return typeof v;
}

const MISSING = Symbol('missing');
export class Checker {
  constructor(file) { this.file = file; }
  fail(where, problem) { throw new TokenizerFileError(this.file, where, problem); }
  /** obj[name] if ok(value); a missing key is `dflt` when one is given. */
  get(obj, path, name, expected, ok, dflt = MISSING) {
    if (!Object.hasOwn(obj, name)) {
      if (dflt !== MISSING) return dflt;
      this.fail(field(path, name), `expected ${expected}, got nothing (the key is missing)`);
    }
    const v = obj[name];
    if (!ok(v)) this.fail(field(path, name), `expected ${expected}, got ${describe(v)}`);
    return v;
  }
}
