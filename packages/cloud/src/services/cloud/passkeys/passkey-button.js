// The sign-in page's passkey button (served as /cloud/oauth2/passkey-sign-in.js): asks the cloud for a challenge,
// lets the browser's passkey prompt answer it (@simplewebauthn/browser, loaded before this script), and posts the
// answer with the sign-in form's other fields. Without WebAuthn the button stays hidden and the password form works.
(() => {
  const form = document.getElementById('passkey-form');
  const browser = window.SimpleWebAuthnBrowser;
  if (!form || !browser?.browserSupportsWebAuthn()) return;
  form.hidden = false;
  const answer = form.querySelector('input[name=passkey]');
  const status = document.getElementById('passkey-status');
  const button = form.querySelector('button');
  form.addEventListener('submit', async (event) => {
    if (answer.value) return;
    event.preventDefault();
    button.disabled = true;
    status.textContent = '';
    try {
      const response = await fetch('/cloud/oauth2/passkey-options', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ csrf: form.querySelector('input[name=csrf]').value }),
      });
      if (!response.ok) throw new Error((await response.json()).error_description || 'The passkey sign-in could not start.');
      const optionsJSON = await response.json();
      answer.value = JSON.stringify(await browser.startAuthentication({ optionsJSON }));
      form.submit();
    } catch (error) {
      button.disabled = false;
      status.textContent =
        error && error.name === 'NotAllowedError'
          ? 'No passkey was chosen. Try again, or sign in with your password.'
          : `${error?.message || error}`;
    }
  });
})();
