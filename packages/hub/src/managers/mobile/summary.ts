/** The household's alarms at a glance: how many are on, and when the next one goes off. */
export interface AlarmsAtAGlance {
  enabled: number;
  next: string | null;
}

interface Parts {
  alarms: () => AlarmsAtAGlance;
  flows: () => number;
  variables: () => number;
}

/**
 * What the mobile app's summary counts, each part answered by the manager that owns the records (alarms, flows,
 * logic) while it runs: the mobile manager asks here and never reads their tables. A part whose manager is not
 * running counts nothing.
 */
export class HomeSummary {
  readonly #parts: Partial<Parts> = {};

  /** Answers the undo. */
  provide<K extends keyof Parts>(key: K, part: Parts[K]): () => void {
    this.#parts[key] = part;
    return () => {
      if (this.#parts[key] === part) delete this.#parts[key];
    };
  }

  alarms(): AlarmsAtAGlance {
    return this.#parts.alarms?.() ?? { enabled: 0, next: null };
  }

  flows(): number {
    return this.#parts.flows?.() ?? 0;
  }

  variables(): number {
    return this.#parts.variables?.() ?? 0;
  }
}
