/**
 * A run's console output, bounded: lines are kept while their UTF-8 bytes fit in the limit;
 * the rest are counted, and a last line says how many bytes were dropped.
 */
export class LogBuffer {
  private readonly lines: string[] = [];
  private kept = 0;
  private dropped = 0;

  constructor(private readonly maxBytes: number) {}

  /** Adds one line (or counts it as dropped once the limit is reached). */
  add(line: string): void {
    // A line over the limit costs no encoding: its length alone says it does not fit.
    const bytes = line.length > this.maxBytes ? line.length : Buffer.byteLength(line);
    if (this.dropped === 0 && this.kept + bytes <= this.maxBytes) {
      this.lines.push(line);
      this.kept += bytes;
    } else this.dropped += Buffer.byteLength(line);
  }

  /** The kept lines, then `… N more bytes of output dropped` if any were; undefined when nothing was printed. */
  result(): string[] | undefined {
    if (this.dropped > 0) return [...this.lines, `… ${this.dropped} more bytes of output dropped`];
    return this.lines.length > 0 ? [...this.lines] : undefined;
  }
}
