import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { createHttpServices } from './app/services';
import { texts } from './config/texts';
import './styles.css';

const root = document.getElementById('support-form-root');
if (typeof window.fetch !== 'function') {
  // Browsers without fetch cannot run the form: point them to e-mail support instead.
  window.alert(texts.noFetch);
} else if (root) {
  const cloudUrl = (import.meta.env.VITE_CLOUD_URL as string | undefined) ?? window.location.origin;
  createRoot(root).render(<App services={createHttpServices(cloudUrl)} knowledgeBaseUrl={`${cloudUrl}/api/helpdesk/articles`} />);
}
