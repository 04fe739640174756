// Optimal segmentation (spec 10): placeholder until written.
export class Vocabulary { constructor() { throw new Error('segment: not implemented yet'); } }
export function segment() { throw new Error('segment: not implemented yet'); }
