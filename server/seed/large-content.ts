// Word lists and sentence templates of the large realm (seed/large.ts): names, channel and topic
// names and message texts are combined from small lists so a fixed seed gives the same realm every
// time, with enough variety that search, topic lists and the sidebar look like a real organization.

export const FIRST_NAMES = (
  'Aaron Abigail Adrian Aisha Alan Alice Amara Amir Ana Andre Anika Anton Ava Ben Bianca ' +
  'Boris Carla Carlos Chen Chloe Clara Daniel Dara David Diego Elena Eli Emil Erin Ethan ' +
  'Fatima Felix Fiona Gabriel Grace Hana Hassan Helen Hugo Ibrahim Ines Isaac Ivy Jack ' +
  'Jana Javier Jin Jonas Julia Kai Karim Kate Kenji Lara Leo Lena Liam Lina Lucas Luisa ' +
  'Maja Marco Maria Mateo Mei Mia Milan Nadia Naomi Nico Nina Noah Nora Omar Oscar Paula ' +
  'Pedro Priya Quinn Rafael Rania Ravi Rosa Ruth Sam Sara Sean Sofia Tariq Tess Theo ' +
  'Tomas Uma Vera Victor Wen Yara Yusuf Zara Zoe'
).split(' ');

export const LAST_NAMES = (
  'Abbott Adler Ahmed Alvarez Andersen Baker Banerjee Becker Berg Bianchi Brooks Campbell ' +
  'Castro Chang Costa Cruz Dalton Das Dubois Eriksen Evans Farah Fischer Flores Fong ' +
  'Garcia Gomez Graham Gupta Hahn Hansen Hayes Herrera Hoffmann Huang Ibarra Ito Jensen ' +
  'Joshi Kang Keller Khan Kim Klein Kowalski Kumar Larsen Lee Lopez Madsen Mendes Meyer ' +
  'Molina Moreau Murphy Nagy Nakamura Nguyen Novak Okafor Olsen Ortiz Park Patel Perez ' +
  'Petrov Quinn Ramos Reyes Richter Rossi Russo Sato Schmidt Silva Singh Sousa Suzuki ' +
  'Tanaka Torres Tran Vargas Vogel Walker Wang Weber Wolf Wong Yamamoto Young Zhang ' +
  'Ziegler Morgan Novotny Haddad Mensah Lindqvist Kaur Oliveira Popescu'
).split(' ');

export const TIMEZONES = [
  'Europe/Berlin',
  'Europe/London',
  'America/New_York',
  'America/Los_Angeles',
  'Asia/Kolkata',
  'Asia/Tokyo',
  'Africa/Lagos',
  'Australia/Sydney',
  'America/Sao_Paulo',
  'UTC',
];

const TEAMS = (
  'backend frontend mobile design infra data security support sales marketing finance ' +
  'legal hiring docs qa platform search billing growth research ops api desktop payments ' +
  'analytics'
).split(' ');

const AREAS = (
  'general team dev alerts reviews planning help releases oncall standup social berlin ' +
  'london tokyo lagos remote interns guild incidents roadmap triage experiments feedback ' +
  'announcements retro tools metrics launch partners offsite training wins questions ' +
  'builds ideas customers design-crit perf'
).split(' ');

/** The i-th channel name; unique for i below TEAMS.length * AREAS.length (950), then numbered. */
export function channelName(i: number): string {
  const base = `${TEAMS[i % TEAMS.length]}-${AREAS[Math.floor(i / TEAMS.length) % AREAS.length]}`;
  const round = Math.floor(i / (TEAMS.length * AREAS.length));
  return round === 0 ? base : `${base}-${round + 1}`;
}

const TOPIC_SUBJECTS = [
  'login page',
  'release 4.2',
  'database migration',
  'onboarding flow',
  'dark mode',
  'api limits',
  'flaky tests',
  'q3 planning',
  'office move',
  'new laptop',
  'pricing page',
  'search ranking',
  'ci pipeline',
  'design review',
  'customer call',
  'hiring loop',
  'budget',
  'incident 4471',
  'memory leak',
  'offsite agenda',
  'error budget',
  'mobile sync',
  'invoice export',
  'load test',
  'sso setup',
  'push notifications',
  'style guide',
  'roadmap',
  'weekly sync',
  'lunch',
];

const TOPIC_SUFFIXES = ['', ' follow-up', ' questions', ' feedback', ' ideas', ' status', ' notes'];

/** The i-th topic name of a channel; distinct for i below 210. */
export function topicName(i: number): string {
  const subject = TOPIC_SUBJECTS[i % TOPIC_SUBJECTS.length];
  const suffix = TOPIC_SUFFIXES[Math.floor(i / TOPIC_SUBJECTS.length) % TOPIC_SUFFIXES.length];
  const round = Math.floor(i / (TOPIC_SUBJECTS.length * TOPIC_SUFFIXES.length));
  return `${subject}${suffix}${round === 0 ? '' : ` ${round + 1}`}`;
}

const OPENERS = [
  'I think',
  'Honestly',
  'Quick update',
  'For what it is worth',
  'Looks like',
  'Good news',
  'Heads up',
  'Just checked and',
  'As discussed',
  'Sorry for the delay but',
  'Small thing',
  'From my side',
  'Turns out',
  'If nobody objects',
  'Okay so',
];

const SUBJECTS = [
  'the build',
  'the new dashboard',
  'the migration',
  'the release branch',
  'our staging server',
  'the export job',
  'the login flow',
  'the draft',
  'the search index',
  'the mobile app',
  'the invoice template',
  'the test suite',
  'the design doc',
  'the cache',
  'the rollout',
  'the customer report',
  'the api client',
  'the onboarding email',
  'the retry logic',
  'the schema',
];

const PREDICATES = [
  'is green again',
  'needs another review',
  'is ready for testing',
  'broke on Windows',
  'is twice as fast now',
  'should ship on Friday',
  'can wait until next week',
  'has a few rough edges',
  'looks good to me',
  'is blocked on legal',
  'is still flaky',
  'needs a better name',
  'passed all checks',
  'is deployed to staging',
  'uses too much memory',
  'works on my machine',
  'needs a second pair of eyes',
  'is finally merged',
];

const ENDINGS = ['.', '!', '?', ', thanks.', ', any thoughts?', '. More soon.', ''];

const SHORT_REPLIES = [
  'Sounds good to me.',
  'Thanks!',
  'On it.',
  'Agreed.',
  'Let me check.',
  'Nice work',
  'Can we talk about this tomorrow?',
  'Makes sense.',
  'Done.',
  'I will take a look.',
];

/** Messages with markup: code, emoji, lists, quotes and links, rendered by the full parser. */
const RICH = [
  'Try `npm run build` first, then restart the server.',
  '```ts\nconst retries = 3;\n```',
  'Shipped it :tada: thanks everyone :heart:',
  'Two options:\n- ship it now\n- wait for the review',
  '> the deadline moved\nso we have one more week :+1:',
  'Notes are here: https://example.com/notes',
  '**Reminder:** standup moves to 10 am.',
  'Looks great :rocket:',
  '```\nERROR 502 upstream timed out\n```\nanyone seen this before?',
  'The fix is in `retry.ts`, *please* review.',
];

/** A message text; some mention `mentionName`, a few carry markup. */
export function messageText(random: () => number, mentionName: string | null): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const roll = random();
  let text: string;
  if (roll < 0.06) text = pick(RICH);
  else if (roll < 0.26) text = pick(SHORT_REPLIES);
  else text = `${pick(OPENERS)} ${pick(SUBJECTS)} ${pick(PREDICATES)}${pick(ENDINGS)}`;
  return mentionName === null ? text : `@**${mentionName}** ${text}`;
}
