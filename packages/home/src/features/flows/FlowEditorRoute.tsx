import { lazy, Suspense } from 'react';
import { Loading } from '../../components/Status';
import { parseFlowParam } from './model';

// The editors are loaded when they are opened (the canvas with its node-editor library), so the app's first load
// stays small.
const FlowEditorPage = lazy(() => import('./editor/FlowEditorPage'));
const AdvancedFlowEditorPage = lazy(() => import('./canvas/AdvancedFlowEditorPage'));

/**
 * The flow editors' pages: a new flow or advanced flow (no `param`), or the flow a page address names
 * (`advanced:<id>` for an advanced flow, as on its page).
 */
export function FlowEditorRoute({ param, advanced }: { param?: string; advanced?: boolean }) {
  const flow = param === undefined ? null : parseFlowParam(param);
  return (
    <Suspense fallback={<Loading />}>
      {advanced || flow?.kind === 'advancedflow' ? <AdvancedFlowEditorPage id={flow?.id} /> : <FlowEditorPage id={flow?.id} />}
    </Suspense>
  );
}
