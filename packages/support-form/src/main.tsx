import { boot } from './app/boot';
import './styles.css';

boot(
  document.getElementById('support-form-root'),
  window,
  (import.meta.env.VITE_CLOUD_URL as string | undefined) ?? window.location.origin,
);
