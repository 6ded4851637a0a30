/** One line of an app's output. */
export interface StdLine {
  /** The line's number in its app's output, counted from 1 (a devkit client drops lines it already showed). */
  readonly seq: number;
  /** ISO time the line arrived. */
  readonly t: string;
  readonly stream: 'stdout' | 'stderr';
  readonly line: string;
}

/** How many lines of output each app keeps. */
export const STD_LINES = 500;
/** The longest line kept; longer lines are cut (an app printing a megabyte on one line keeps a bounded log). */
export const STD_LINE_CHARS = 4_000;

/**
 * An app's recent output: a bounded ring of lines, kept across restarts of its process, with listeners for
 * streaming (a devkit session follows it live).
 */
export class StdLog {
  readonly #lines: StdLine[] = [];
  readonly #listeners = new Set<(line: StdLine) => void>();
  #seq = 0;

  constructor(
    private readonly now: () => number,
    private readonly limit = STD_LINES,
  ) {}

  append(stream: StdLine['stream'], text: string): void {
    for (const part of text.split('\n')) {
      this.#seq += 1;
      const line: StdLine = {
        seq: this.#seq,
        t: new Date(this.now()).toISOString(),
        stream,
        line: part.slice(0, STD_LINE_CHARS),
      };
      this.#lines.push(line);
      for (const listener of this.#listeners) listener(line);
    }
    if (this.#lines.length > this.limit) this.#lines.splice(0, this.#lines.length - this.limit);
  }

  lines(): StdLine[] {
    return [...this.#lines];
  }

  /** The last `count` lines of `stream`, joined: what a crash report shows. */
  tail(stream: StdLine['stream'], count: number): string {
    return this.#lines
      .filter((l) => l.stream === stream)
      .slice(-count)
      .map((l) => l.line)
      .join('\n');
  }

  follow(listener: (line: StdLine) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

/**
 * Splits a child's output stream into lines for a {@link StdLog}, holding back an unfinished last line (and
 * cutting one that never ends at {@link STD_LINE_CHARS}).
 */
export function lineSplitter(onLine: (line: string) => void): { write(chunk: Buffer | string): void; flush(): void } {
  let rest = '';
  return {
    write(chunk) {
      rest += chunk.toString();
      let newline = rest.indexOf('\n');
      while (newline !== -1) {
        onLine(rest.slice(0, newline).replace(/\r$/, ''));
        rest = rest.slice(newline + 1);
        newline = rest.indexOf('\n');
      }
      if (rest.length > STD_LINE_CHARS) {
        onLine(rest.slice(0, STD_LINE_CHARS));
        rest = '';
      }
    },
    flush() {
      if (rest) onLine(rest);
      rest = '';
    },
  };
}
