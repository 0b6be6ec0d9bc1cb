// The values each personal choice setting may take, with the words the public web app uses for
// them. Screens offer exactly these, so a value the server would refuse is never sent.
export interface Choice<V extends string | number> {
  value: V;
  label: string;
}

export const COLOR_SCHEMES: Choice<number>[] = [
  { value: 1, label: 'Automatic (follows system settings)' },
  { value: 3, label: 'Light' },
  { value: 2, label: 'Dark' },
];

export const TIME_FORMATS: Choice<string>[] = [
  { value: '12', label: '12-hour clock (5:00 PM)' },
  { value: '24', label: '24-hour clock (17:00)' },
];

export const HOME_VIEWS: Choice<string>[] = [
  { value: 'inbox', label: 'Inbox' },
  { value: 'recent_topics', label: 'Recent conversations' },
  { value: 'all_messages', label: 'All messages' },
];

export const CHANNEL_DEFAULT_VIEWS: Choice<number>[] = [
  { value: 1, label: 'Top topic in the channel' },
  { value: 4, label: 'Top unread topic in channel' },
  { value: 2, label: 'Channel feed' },
  { value: 3, label: 'List of topics' },
];

export const ANIMATE_IMAGES: Choice<string>[] = [
  { value: 'always', label: 'Always' },
  { value: 'on_hover', label: 'On hover' },
  { value: 'never', label: 'Only in the image viewer' },
];

export const USER_LIST_STYLES: Choice<number>[] = [
  { value: 1, label: 'Compact' },
  { value: 2, label: 'Show status text' },
  { value: 3, label: 'Show avatar' },
];

export const MARK_READ_ON_SCROLL: Choice<number>[] = [
  { value: 1, label: 'Always' },
  { value: 2, label: 'Only in conversation views' },
  { value: 3, label: 'Never' },
];

/** The emoji sets the app draws (emoji-datasource sheets), and text. */
export const EMOJI_SETS: Choice<string>[] = [
  { value: 'google', label: 'Google' },
  { value: 'twitter', label: 'Twitter' },
  { value: 'text', label: 'Plain text' },
];

let timeZones: Choice<string>[] | undefined;

/** Every time zone the runtime knows (the server checks the same IANA names), "Not set" first. */
export function timeZoneChoices(current: string): Choice<string>[] {
  timeZones ??= Intl.supportedValuesOf('timeZone').map((zone) => ({
    value: zone,
    label: zone.replace(/_/g, ' '),
  }));
  const listed = current === '' || timeZones.some((zone) => zone.value === current);
  return [
    { value: '', label: 'Not set' },
    ...(listed ? [] : [{ value: current, label: current }]),
    ...timeZones,
  ];
}
