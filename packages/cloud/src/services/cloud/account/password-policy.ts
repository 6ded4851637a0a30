import { invalidParameter } from '@hearth/contract';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';

/** The lowest zxcvbn score (0–4) a new password may have: 2 resists online guessing with throttling. */
export const MIN_PASSWORD_SCORE = 2;

let estimator: ZxcvbnFactory | null = null;
let commonPasswords: Set<string> | null = null;

// Built on first use: the dictionaries take a moment and some memory, which a cloud that never sees a new
// password should not pay for.
function zxcvbn(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
  });
  return estimator;
}

/**
 * The bundled list of passwords people pick most (the 49,000 of zxcvbn-ts's common dictionary, which come from
 * breach corpora): any of them is refused outright, whatever its score.
 */
function isCommon(password: string): boolean {
  commonPasswords ??= new Set((common.dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase()));
  return commonPasswords.has(password.toLowerCase());
}

export interface Strength {
  score: number;
  acceptable: boolean;
  warning: string;
  suggestions: string[];
}

/** How hard `password` is to guess, given words of the person it should not be built from. */
export function passwordStrength(password: string, userInputs: readonly string[] = []): Strength {
  if (password === '') return { score: 0, acceptable: false, warning: '', suggestions: [] };
  const inputs = userInputs.flatMap((input) => [input, ...input.split(/[@.\s_-]+/)]).filter((word) => word.length >= 3);
  const result = zxcvbn().check(password, inputs);
  const common = isCommon(password);
  const tooShort = password.length < 8;
  return {
    score: common ? 0 : result.score,
    acceptable: !common && !tooShort && result.score >= MIN_PASSWORD_SCORE,
    warning: common
      ? 'This is one of the most common passwords.'
      : tooShort
        ? 'Use at least 8 characters.'
        : (result.feedback.warning ?? ''),
    suggestions: result.feedback.suggestions,
  };
}

/** Refuses a new password that is common or too easy to guess, naming the field as the contract's errors do. */
export function checkNewPassword(password: string, userInputs: readonly string[], field = 'password'): void {
  const strength = passwordStrength(password, userInputs);
  if (strength.acceptable) return;
  const reason = strength.warning || 'It is too easy to guess.';
  throw invalidParameter(field, `${reason} Choose a longer password, for example a few unrelated words.`);
}
