/** A device a driver found, as it answers `list_devices` (or a join/learn view): added as given. */
export interface Candidate {
  name: string;
  data: Record<string, unknown>;
  [key: string]: unknown;
}

/** The devices in a driver's answer (one device or a list); anything else in it is left out. */
export const asCandidates = (answer: unknown): Candidate[] =>
  (Array.isArray(answer) ? answer : answer && typeof answer === 'object' ? [answer] : []).filter((item): item is Candidate =>
    Boolean(item && typeof item === 'object' && 'name' in item && 'data' in item),
  );
