import { boot } from './app/boot';
// The style sheet in cascade order: the base all Hearth pages share; the form's theme, frame and buttons; the steps,
// tiles and messages; devices, fields, popups and what the ticket carries.
import '@hearth/client/styles/base.css';
import './styles/base.css';
import './styles/steps.css';
import './styles/fields.css';

boot(
  document.getElementById('support-form-root'),
  window,
  (import.meta.env.VITE_CLOUD_URL as string | undefined) ?? window.location.origin,
);
