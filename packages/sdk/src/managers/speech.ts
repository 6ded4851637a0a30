import { unsupported } from '../internal/bridge';
import { Manager } from './manager';

/** `this.homey.speechOutput`: the hub says something through its speaker (text-to-speech). */
export class ManagerSpeechOutput extends Manager {
  static ID = 'speech-output';

  async say(text: string, _opts: { session?: object } = {}): Promise<void> {
    await this.bridge.call('speech.say', { text });
  }
}

/** `this.homey.speechInput`: Hearth hubs have no microphone; asking the user throws. */
export class ManagerSpeechInput extends Manager {
  static ID = 'speech-input';

  async ask(_text: string, _opts: { session?: object; timeout?: number } = {}): Promise<never> {
    throw unsupported('ManagerSpeechInput.ask', 'the hub has no speech input');
  }

  async confirm(_text: string, _opts: { session?: object; timeout?: number } = {}): Promise<never> {
    throw unsupported('ManagerSpeechInput.confirm', 'the hub has no speech input');
  }
}
