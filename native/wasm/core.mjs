// The C core (native/core/) built to WebAssembly (build.mjs), behind the codec's API of functok
// for JavaScript: encode, decode, pretokens and split take the same options and throw the same
// errors as js/src. The glue is the package's own (js/src/engine/wasm.mjs, which functok for
// JavaScript's engine seam runs); this file only finds the module's bytes, outside the package:
//
//   import { loadCore } from './native/wasm/core.mjs';
//   const core = await loadCore();          // Node: build/functok-core.wasm next to this file
//   const core = await loadCore(urlOrBytes); // a browser: a URL, a Response, or the bytes
//   core.encode('Hello World')
import { instantiate, Core } from '../../js/src/engine/wasm.mjs';
import { FormatError } from '../../js/src/errors.mjs';

export { FormatError, Core };

async function moduleBytes(source) {
  if (source === undefined) { // Node: the built file beside this module
    const { readFile } = await import('node:fs/promises');
    const path = new URL('./build/functok-core.wasm', import.meta.url);
    try { return await readFile(path); } catch (e) {
      throw new Error(`functok wasm core: ${path.pathname} is missing; build it with: node native/wasm/build.mjs (${e.code})`);
    }
  }
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return source;
  const response = typeof Response !== 'undefined' && source instanceof Response ? source : await fetch(source);
  if (!response.ok) throw new Error(`functok wasm core: ${response.url} answered ${response.status}`);
  return response.arrayBuffer();
}

/** The core's codec (a Core), instantiated from `source` (bytes, a URL or a Response; in Node, the built file by default). */
export async function loadCore(source) {
  return (await instantiate(await moduleBytes(source))).core;
}
