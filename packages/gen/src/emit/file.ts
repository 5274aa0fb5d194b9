/**
 * emit: what every emitter produces, one file of the output folder. Its own module, so that the
 * emitters and the writer share it without importing the emitters' entry point.
 */
export interface GeneratedFile {
  /** Path inside the output folder, posix separators. */
  readonly path: string;
  readonly content: string;
}
