/*
 * The pairing client API an app's own pairing view expects (`Homey.emit`, `Homey.on`, `Homey.showView`, …), for a
 * view the household web app shows in a sandboxed frame. The hub adds this script to every custom pair view it
 * serves. Each call is a message to the web app, which makes the session's call on the hub and answers; what the
 * driver emits to the views arrives as a message too. Calls answer promises, or call a Node-style callback given
 * last, as views written for the ecosystem do.
 */
(() => {
  const pending = new Map();
  const listeners = new Map();
  let nextId = 1;

  const call = (name, args) => {
    const callback = typeof args[args.length - 1] === 'function' ? args.pop() : null;
    const answer = new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      window.parent.postMessage({ hearthPair: 1, id, call: name, args }, '*');
    });
    if (callback)
      answer.then(
        (result) => callback(null, result),
        (error) => callback(error),
      );
    return answer;
  };

  window.addEventListener('message', (event) => {
    const message = event.data;
    if (event.source !== window.parent || !message || message.hearthPair !== 1) return;
    if (typeof message.id === 'number') {
      const waiting = pending.get(message.id);
      if (!waiting) return;
      pending.delete(message.id);
      if (message.error) waiting.reject(new Error(message.error));
      else waiting.resolve(message.result);
      return;
    }
    for (const listener of listeners.get(message.event) ?? []) listener(message.data);
  });

  window.Homey = {
    emit: (...args) => call('emit', args),
    on(event, listener) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
      return this;
    },
    showView: (...args) => call('showView', args),
    nextView: (...args) => call('nextView', args),
    prevView: (...args) => call('prevView', args),
    done: (...args) => call('done', args),
    createDevice: (...args) => call('createDevice', args),
    alert: (...args) => call('alert', args),
    setTitle: (...args) => call('setTitle', args),
  };
})();
