import { type ReactNode, useCallback, useMemo, useRef, useState } from 'react';
import { useServices } from '../../../app/services';
import { StepFrame, type StepStatus } from '../../../components/StepFrame';
import { texts } from '../../../config/texts';
import type { Order, User } from '../../../types/entities';
import { AppsStep } from '../../apps/components/AppsStep';
import { CommunityStep } from '../../community/components/CommunityStep';
import { ContactDeveloperStep } from '../../developer/components/ContactDeveloperStep';
import { EmailDeveloperStep } from '../../developer/components/EmailDeveloperStep';
import { DevicesStep } from '../../devices/components/DevicesStep';
import { type HubDiagnostics, startDiagnostics } from '../../hub/api/diagnostics';
import { HubCategoryStep } from '../../hub/components/HubCategoryStep';
import { KnowledgeBaseStep } from '../../knowledge-base/components/KnowledgeBaseStep';
import { MainCategoryStep } from '../../main-category/components/MainCategoryStep';
import { ResultPopup } from '../../result/components/ResultPopup';
import { TicketStep } from '../../ticket/components/TicketStep';
import { accountGroups, type Choice, type Collected, collectedUpTo, createEngine, type StepId, tree } from '../../tree';
import { FormContext, type FormContextValue, type Popup, type StepProps } from '../context';
import { GroupedOptionsStep } from './GroupedOptionsStep';

const engine = createEngine(tree);

const stepComponents: Record<StepId, (props: StepProps) => ReactNode> = {
  mainCategory: MainCategoryStep,
  accountCategory: (props) => <GroupedOptionsStep {...props} step="accountCategory" groups={accountGroups} />,
  hubCategoryCloud: HubCategoryStep,
  hubCategoryPro: HubCategoryStep,
  hubCategoryProMini: HubCategoryStep,
  apps: AppsStep,
  devices: DevicesStep,
  knowledgeBase: KnowledgeBaseStep,
  knowledgeBaseFinal: KnowledgeBaseStep,
  community: CommunityStep,
  contactDeveloper: ContactDeveloperStep,
  emailDeveloper: EmailDeveloperStep,
  ticket: TicketStep,
};

/** The signed-in form: the greeting, the steps revealed so far, the placeholder of the next one, and the popups. */
export function SupportForm({
  user,
  orders,
  knowledgeBaseUrl,
}: {
  user: User;
  orders: Order[] | null;
  knowledgeBaseUrl: string;
}) {
  const services = useServices();
  const [state, setState] = useState(() => engine.initial());
  const [popup, setPopup] = useState<Popup | null>(null);
  // Keys of steps revealed by the person (not present on first render): those scroll into view and take focus.
  const revealed = useRef(new Set<string>());
  const diagnostics = useRef(new Map<string, HubDiagnostics>());

  const diagnosticsFor = useCallback(
    (hubId: string) => {
      const known = diagnostics.current.get(hubId);
      if (known) return known;
      const hub = user.hubs.find((h) => h.id === hubId);
      if (!hub) return null;
      const started = startDiagnostics(services, hub);
      diagnostics.current.set(hubId, started);
      return started;
    },
    [services, user.hubs],
  );

  const context: FormContextValue = useMemo(
    () => ({ user, orders, diagnostics: diagnosticsFor, openPopup: setPopup, popupOpen: popup !== null }),
    [user, orders, diagnosticsFor, popup],
  );

  const choose = (index: number, choice: Choice) => {
    const hubId = choice.data?.hub?.id;
    if (index === 0 && hubId) diagnosticsFor(hubId);
    setState((s) => {
      const next = engine.choose(s, index, choice);
      const added = next.answers[index + 1];
      if (added) revealed.current.add(keyOf(next.answers, index + 1));
      return next;
    });
  };
  const proceed = (index: number) =>
    setState((s) => {
      const next = engine.proceed(s, index);
      if (next.answers[index + 1]) revealed.current.add(keyOf(next.answers, index + 1));
      return next;
    });
  const update = (index: number, data: Partial<Collected>) => setState((s) => engine.update(s, index, data));

  const greeting = useRef<HTMLHeadingElement>(null);
  /** After a send, closing the popup starts a new question from the top. */
  const startOver = () => {
    setPopup(null);
    revealed.current.clear();
    setState(engine.initial());
    greeting.current?.focus();
    greeting.current?.scrollIntoView?.({ block: 'start' });
  };

  const last = state.answers[state.answers.length - 1];
  const waitingForChoice = last && tree.steps[last.step].type === 'action' && last.value === null;
  return (
    <FormContext.Provider value={context}>
      <main id="content" tabIndex={-1} className="support-form" inert={popup !== null}>
        <h1 className="support-form__greeting" ref={greeting} tabIndex={-1}>
          {texts.greeting(user.firstname || user.fullname)}
        </h1>
        {state.answers.map((answer, index) => {
          const Step = stepComponents[answer.step];
          const key = keyOf(state.answers, index);
          const status: StepStatus = index === state.answers.length - 1 ? 'current' : 'previous';
          return (
            <Step
              key={key}
              answer={answer}
              collected={collectedUpTo(state.answers, index - 1)}
              status={status}
              reveal={revealed.current.has(key)}
              choose={(choice) => choose(index, choice)}
              proceed={() => proceed(index)}
              update={(data) => update(index, data)}
            />
          );
        })}
        {waitingForChoice ? <StepFrame stepName="placeholder" question={texts.placeholderStep} status="next" /> : null}
      </main>
      {popup ? <ResultPopup popup={popup} knowledgeBaseUrl={knowledgeBaseUrl} onClose={startOver} /> : null}
    </FormContext.Provider>
  );
}

/** A step's identity: its position, its step and every answer before it, so a changed path makes a new step. */
function keyOf(answers: readonly { step: string; value: string | null }[], index: number): string {
  return answers
    .slice(0, index + 1)
    .map((a, i) => (i === index ? a.step : `${a.step}=${a.value}`))
    .join('/');
}
