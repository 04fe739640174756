// The error kinds of spec 8 and the one exception type that carries them.
import { ERROR_KINDS, ERROR_PRECEDENCE } from './tables.mjs';

export { ERROR_KINDS };

/** A stream or text the format cannot accept: `kind` (spec 8.1) at code point `offset`. */
export class FormatError extends Error {
  constructor(kind, offset, message) {
    if (!ERROR_KINDS.includes(kind)) throw new TypeError(`unknown error kind ${kind}`);
    super(`${kind} at code point ${offset}: ${message}`);
    this.name = 'FormatError';
    this.kind = kind;
    this.offset = offset;
    this.detail = message;
  }
}

const rank = (kind) => {
  const r = ERROR_PRECEDENCE.indexOf(kind);
  return r < 0 ? ERROR_PRECEDENCE.length : r;
};

/** Whether an error `kind` at `offset` comes before `error` for a strict decoder (spec 8.2): smaller offset, then the precedence list. */
export function precedes(kind, offset, error) {
  return offset < error.offset || (offset === error.offset && rank(kind) < rank(error.kind));
}

/** The error a strict decoder reports (spec 8.2) among `errors`: the first that none precedes. */
export function firstError(errors) {
  let best = errors[0];
  for (const e of errors) if (precedes(e.kind, e.offset, best)) best = e;
  return best;
}
