// Type-checked by js/test/types.test.mjs (tsc --noEmit, strict): wasm/functok.d.ts, the
// declarations of functok.mjs, with the types it takes from js/index.d.ts. Never run.
import type * as F from "../../functok.d.ts";

declare const loadFunctok: typeof F.loadFunctok;
const functok: F.Functok = await loadFunctok({ onProgress: (step) => void step });
const options: F.PretokenOptions = { profile: "compact", fold: "none", case: "range", fuse: "frequent", split_operators: true };
const stream: string = functok.encode("Héllo", options);
const cut: string[] = functok.pretokens("Héllo", options);
const piece: F.Piece = functok.pieces("Héllo", { profile: "paper" })[0];
const starts: number[] = piece.slot_starts;
const label: string = piece.instructions[0].label;
const shared: string = piece.text + piece.base + piece.encoded + (piece.start + piece.end);
const tok = await functok.loadTokenizer("{}");
const ids: number[] = tok.encode("Héllo", { segmentation: "optimal", tie_break: "prefer-greedy" }).ids;
try { functok.decode("ab\uefff"); } catch (e) { const kind: F.ErrorKind | null = (e as F.FunctokError).kind; void kind; }

// @ts-expect-error: an unknown fold
functok.encode("x", { fold: "some" });
// @ts-expect-error: the JavaScript package's name, not the bridge's
piece.slotStarts;

void [stream, cut, starts, label, shared, ids];
