import { notFound } from '@hearth/contract';

/** The sentence the hub says in each language it speaks, while its owner picks one during setup. */
const SAMPLES: Record<string, string> = {
  en: 'Hello! I am your Hearth. Shall we set up your home together?',
  nl: 'Hallo! Ik ben je Hearth. Zullen we samen je huis instellen?',
  de: 'Hallo! Ich bin dein Hearth. Wollen wir gemeinsam dein Zuhause einrichten?',
  fr: 'Bonjour ! Je suis votre Hearth. Configurons votre maison ensemble ?',
  it: 'Ciao! Sono il tuo Hearth. Configuriamo insieme la tua casa?',
  es: '¡Hola! Soy tu Hearth. ¿Configuramos juntos tu hogar?',
  sv: 'Hej! Jag är din Hearth. Ska vi ställa in ditt hem tillsammans?',
  no: 'Hei! Jeg er din Hearth. Skal vi sette opp hjemmet ditt sammen?',
  da: 'Hej! Jeg er din Hearth. Skal vi sætte dit hjem op sammen?',
  pl: 'Cześć! Jestem twoim Hearth. Skonfigurujemy razem twój dom?',
  ko: '안녕하세요! 저는 당신의 Hearth입니다. 함께 집을 설정해 볼까요?',
  ru: 'Привет! Я ваш Hearth. Настроим ваш дом вместе?',
};

const RATE = 8000;

/**
 * The hub's voice chime as a WAV file (16-bit mono PCM, 8 kHz): three rising notes whose pitch is the language's, so
 * each language's sample sounds its own. The hub speaks with a speech engine the cloud does not run; the chime is
 * what plays before the hub's words, the words travel as text.
 */
function chime(language: string): Buffer {
  const base = 330 + ((language.charCodeAt(0) * 31 + language.charCodeAt(1)) % 12) * 20;
  const notes = [base, base * 1.25, base * 1.5];
  const samplesPerNote = RATE / 8;
  const samples = notes.length * samplesPerNote;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(RATE, 24);
  wav.writeUInt32LE(RATE * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(samples * 2, 40);
  notes.forEach((frequency, note) => {
    for (let i = 0; i < samplesPerNote; i++) {
      // A short fade in and out keeps the notes from clicking.
      const envelope = Math.min(1, i / 80, (samplesPerNote - i) / 80);
      const value = Math.sin((2 * Math.PI * frequency * i) / RATE) * envelope * 0.4;
      wav.writeInt16LE(Math.round(value * 32767), 44 + (note * samplesPerNote + i) * 2);
    }
  });
  return wav;
}

/** The voice sample of `language`; 404 for a language the hub does not speak. */
export function voiceSample(language: string) {
  const text = SAMPLES[language];
  if (!text) throw notFound('Voice for language', language);
  return {
    language,
    voice: `hearth-${language}`,
    text,
    audio: chime(language).toString('base64'),
    mimeType: 'audio/wav' as const,
  };
}
