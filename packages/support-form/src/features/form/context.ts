import { createContext, useContext } from 'react';
import type { StepStatus } from '../../components/StepFrame';
import type { Order, User } from '../../types/entities';
import type { HubDiagnostics } from '../hub/api/diagnostics';
import type { Answer, Choice, Collected } from '../tree/types';

export type PopupKind = 'ticket' | 'developer';
/** A popup that is open: what was sent, and for a ticket the id the cloud gave it. */
export interface Popup {
  kind: PopupKind;
  ticketId?: string;
}

/** What every step can reach: the signed-in user, their orders, the gathered hub context and the popups. */
export interface FormContextValue {
  user: User;
  orders: Order[] | null;
  diagnostics(hubId: string): HubDiagnostics | null;
  openPopup(popup: Popup): void;
  popupOpen: boolean;
}

export const FormContext = createContext<FormContextValue | null>(null);

export function useFormContext(): FormContextValue {
  const value = useContext(FormContext);
  if (!value) throw new Error('useFormContext needs the support form');
  return value;
}

/** The props every step component gets. */
export interface StepProps {
  answer: Answer;
  /** Everything collected by the steps before this one. */
  collected: Collected;
  status: StepStatus;
  reveal: boolean;
  choose(choice: Choice): void;
  proceed(): void;
  update(data: Partial<Collected>): void;
}
