import { createRoot } from 'react-dom/client';
import { texts } from '../config/texts';
import { App } from './App';
import { createHttpServices, type Services } from './services';

/**
 * Starts the form in `root`. Browsers without fetch cannot run it: they get an alert pointing to e-mail
 * support, and no form. Answers whether the form was mounted.
 */
export function boot(
  root: HTMLElement | null,
  win: Pick<Window, 'alert' | 'location'> & { fetch?: unknown },
  cloudUrl: string,
  services: Services = createHttpServices(cloudUrl),
): boolean {
  if (typeof win.fetch !== 'function') {
    win.alert(texts.noFetch);
    return false;
  }
  if (!root) return false;
  createRoot(root).render(<App services={services} knowledgeBaseUrl={`${cloudUrl}/api/helpdesk/articles`} />);
  return true;
}
