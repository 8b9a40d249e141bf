import type { WidgetStrings } from '../strings.js';

/**
 * German texts, shipped as an example of a locale: `<chatbot-widget locale="de">`, or
 * `widget.strings = { ...de, heading: '…' }`.
 */
export const de: WidgetStrings = {
  heading: 'Chatten Sie mit uns',
  openChat: 'Chat öffnen',
  closeChat: 'Chat schließen',
  showHistory: 'Gesprächsverlauf anzeigen',
  hideHistory: 'Gesprächsverlauf ausblenden',
  historyHeading: 'Ihre Gespräche',
  historyEmpty: 'Noch keine früheren Gespräche.',
  sessionMessages: '{count} Nachrichten',
  backToChat: 'Zurück zum aktuellen Gespräch',
  messagesLabel: 'Nachrichten',
  emptyConversation: 'Stellen Sie eine Frage, um das Gespräch zu beginnen.',
  placeholder: 'Nachricht eingeben…',
  inputLabel: 'Nachricht',
  send: 'Senden',
  attach: 'Link zu einer Datei anhängen',
  attachmentLabel: 'Datei-URL',
  attachmentPlaceholder: 'https://…',
  attachmentInvalid: 'Die Datei muss ein http- oder https-Link sein.',
  you: 'Sie',
  bot: 'Assistent',
  pending: 'Wird gesendet…',
  failed: 'Nicht gesendet',
  retry: 'Erneut senden',
  typing: 'Der Assistent schreibt…',
  loadOlder: 'Ältere Nachrichten laden',
  loading: 'Wird geladen…',
  dismiss: 'Schließen',
  errorOffline: 'Sie scheinen offline zu sein. Ihre Nachricht bleibt erhalten und kann erneut gesendet werden.',
  errorTimeout: 'Der Chat-Dienst hat zu lange gebraucht. Bitte versuchen Sie es erneut.',
  errorRateLimited: 'Zu viele Nachrichten auf einmal. Bitte versuchen Sie es in {seconds} Sekunden erneut.',
  errorServer: 'Der Chat-Dienst ist gerade nicht erreichbar. Bitte versuchen Sie es gleich noch einmal.',
  errorRejected: 'Die Nachricht konnte nicht gesendet werden: {detail}',
  errorTooLong: 'Die Nachricht ist zu lang.',
  errorIdentity: 'Der Chat konnte kein Gespräch beginnen. Bitte laden Sie die Seite neu.',
  attachment: 'Anhang',
  codeBlock: 'Codeblock, seitlich scrollbar',
};
