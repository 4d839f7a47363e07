/** Where a build leaves the hash of the inputs it was made from, inside its output folder. */
export const INPUTS_STAMP: string;
/** The hash of the web build's inputs under `root` (the repository). */
export function webInputsHash(root: string): string;
/** Whether `dist` holds a build made from the inputs as they are now under `root`. */
export function webBuildIsCurrent(root: string, dist: string): boolean;
