import { lazy, Suspense } from 'react';
import { Loading } from '../../components/Status';

// The editor is loaded when it is opened, so the app's first load stays small.
const FlowEditorPage = lazy(() => import('./editor/FlowEditorPage'));

/** The flow editor's pages: a new flow (no `param`) or the flow a page address names. */
export function FlowEditorRoute({ param }: { param?: string }) {
  return (
    <Suspense fallback={<Loading />}>
      <FlowEditorPage id={param === undefined ? undefined : decodeURIComponent(param)} />
    </Suspense>
  );
}
